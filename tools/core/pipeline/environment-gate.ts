/**
 * Environment gate (docs/architecture.md#environment-gate): rules that refuse a call the current
 * environment would make fail ("the keyboard is not shown", "no browser page is open"), read from
 * timestamped telemetry. Missing or stale telemetry reads as undefined and the rule must let the
 * call through (fail-open): an inferred gate must never hard-disable a tool. A rule that throws is
 * skipped.
 *
 * A refusal is EXECUTION_FAILED with `data.gate = 'environment'`: the call could succeed once
 * the model fixes the state, which is what that code's hint says (adjust, then retry), and the
 * rule's own hint names the fix. PERMISSION_DENIED would tell it never to retry, UNSUPPORTED to
 * use a different tool; both would steer it away from "open the input field first". A rule whose
 * state only a person can change (a phone gone offline: replug the cable) says so with its own
 * `code`, so the gate and the tool answer that state with the same code.
 *
 * A reading may be in flight when a call arrives (a phone's screen state, read after its last
 * action while the agent already has its answer): a rule names it with `pending`, and the gate
 * waits for it and decides on what it read, never on the reading from before that action.
 */
import { type Disposable, toDisposable } from '../disposable';
import { type ToolFailure, failure } from '../result';
import type { Tool } from '../tool';
import { slugify } from '../trace/error-slug';
import { type Clock, systemClock } from './clock';

export interface TelemetryReading {
  value: unknown;
  /** Clock time when the value was observed. */
  at: number;
}

/** The port through which the host reports environment state (IME shown, foreground app, device online…). */
export interface EnvironmentTelemetry {
  read(key: string): TelemetryReading | undefined;
}

/** A fresh telemetry value, or undefined when it is missing or older than the gate's maxAgeMs. */
export type TelemetryRead = (key: string) => unknown;

export interface EnvironmentRefusal {
  message: string;
  hint: string;
  /** Default EXECUTION_FAILED (the model can fix the state); see the file's comment. */
  code?: 'UNSUPPORTED' | 'PERMISSION_DENIED';
  /** Facts for the model (e.g. `{ state: 'offline', step: 'reconnect' }`), merged into the error data. */
  data?: Record<string, string>;
}

export interface EnvironmentRule {
  /** Stable id, used in the error data and the trace slug (`environment-<id>`). */
  id: string;
  appliesTo(tool: Tool): boolean;
  /** A refusal when the state is known to be bad; undefined to let the call through. */
  check(read: TelemetryRead, args: unknown): EnvironmentRefusal | undefined;
  /** A reading this rule decides on that is being taken now: the gate waits for it (its failure: fail open). */
  pending?(args: unknown): PromiseLike<unknown> | undefined;
}

export const DEFAULT_TELEMETRY_MAX_AGE_MS = 10_000;

/** An in-memory telemetry store the host writes into. */
export class TelemetryStore implements EnvironmentTelemetry {
  private readonly values = new Map<string, TelemetryReading>();

  constructor(private readonly clock: Clock = systemClock) {}

  set(key: string, value: unknown, at: number = this.clock.now()): void {
    this.values.set(key, { value, at });
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  read(key: string): TelemetryReading | undefined {
    return this.values.get(key);
  }
}

export interface EnvironmentGateOptions {
  telemetry: EnvironmentTelemetry;
  rules?: readonly EnvironmentRule[];
  maxAgeMs?: number;
  clock?: Clock;
}

const NO_RULES: readonly EnvironmentRule[] = [];

export class EnvironmentGate {
  private readonly rules: EnvironmentRule[];
  private readonly telemetry: EnvironmentTelemetry;
  private readonly maxAgeMs: number;
  private readonly clock: Clock;
  /** Rules per tool, computed once per tool object; replaced whenever the rule set changes. */
  private applicable = new WeakMap<Tool, readonly EnvironmentRule[]>();
  private readonly read: TelemetryRead;

  constructor(options: EnvironmentGateOptions) {
    this.telemetry = options.telemetry;
    this.rules = [...(options.rules ?? [])];
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_TELEMETRY_MAX_AGE_MS;
    this.clock = options.clock ?? systemClock;
    this.read = (key) => {
      const reading = this.telemetry.read(key);
      if (reading === undefined || this.clock.now() - reading.at > this.maxAgeMs) return undefined;
      return reading.value;
    };
  }

  addRule(rule: EnvironmentRule): Disposable {
    this.rules.push(rule);
    this.applicable = new WeakMap();
    return toDisposable(() => {
      const i = this.rules.indexOf(rule);
      if (i >= 0) this.rules.splice(i, 1);
      this.applicable = new WeakMap();
    });
  }

  /** What `check` must wait for: the readings in flight that the tool's rules decide on; undefined when none. */
  pendingFor(tool: Tool, args: unknown): Promise<void> | undefined {
    const rules = this.rulesFor(tool);
    let waits: Set<PromiseLike<unknown>> | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      if (rule.pending === undefined) continue;
      let reading: PromiseLike<unknown> | undefined;
      try {
        reading = rule.pending(args);
      } catch {
        reading = undefined; // a broken rule: nothing to wait for
      }
      if (reading !== undefined) (waits ??= new Set()).add(reading);
    }
    if (waits === undefined) return undefined;
    return Promise.all([...waits].map((w) => Promise.resolve(w).catch(() => undefined))).then(() => undefined);
  }

  /** undefined when the call may go on; the refusal of the first rule that objects otherwise. */
  check(tool: Tool, args: unknown): ToolFailure | undefined {
    const rules = this.rulesFor(tool);
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      let refusal: EnvironmentRefusal | undefined;
      try {
        refusal = rule.check(this.read, args);
      } catch {
        refusal = undefined; // a broken rule is an inference we cannot make: fail open
      }
      if (refusal) {
        return failure(refusal.code ?? 'EXECUTION_FAILED', `'${tool.id}' was not run: ${refusal.message}`, {
          hint: refusal.hint,
          data: {
            ...refusal.data,
            gate: 'environment',
            rule: rule.id,
            slug: `environment-${slugify(rule.id) || 'rule'}`,
          },
        });
      }
    }
    return undefined;
  }

  private rulesFor(tool: Tool): readonly EnvironmentRule[] {
    let rules = this.applicable.get(tool);
    if (rules === undefined) {
      const found = this.rules.filter((rule) => {
        try {
          return rule.appliesTo(tool);
        } catch {
          return false;
        }
      });
      rules = found.length > 0 ? found : NO_RULES;
      this.applicable.set(tool, rules);
    }
    return rules;
  }
}
