/**
 * The breakers of all tools: admission and recording for the pipeline, refusal texts for the
 * model, and for the UI every transition (`{ toolId, from, to, at, cause }`) as a bounded
 * per-tool timeline, a stream of listeners, and a state query with the cooldown remaining.
 */
import { type Disposable, Emitter } from '../disposable';
import { type ToolError, type ToolFailure, failure } from '../result';
import { type Clock, systemClock } from './clock';
import {
  type Admission,
  type BreakerLastError,
  type BreakerOptions,
  type BreakerSnapshot,
  type BreakerStateName,
  DEFAULT_BREAKER_OPTIONS,
  ToolCircuitBreaker,
} from './circuit-breaker';

export interface BreakerTransition {
  toolId: string;
  from: BreakerStateName;
  to: BreakerStateName;
  at: number;
  cause: string;
}

export interface BreakerView {
  toolId: string;
  state: BreakerStateName;
  consecutiveFailures: number;
  /** Ms until the probe is allowed (0 unless open). */
  cooldownRemainingMs: number;
  /** The cooldown the next (or current) open period uses. */
  cooldownMs: number;
  probeInFlight: boolean;
  lastError: BreakerLastError | undefined;
}

export interface CircuitBreakersOptions extends Partial<BreakerOptions> {
  clock?: Clock;
  /** Transitions kept per tool for the timeline; default 100. */
  timelineLimit?: number;
}

export class CircuitBreakers {
  readonly options: Readonly<BreakerOptions>;
  private readonly breakers = new Map<string, ToolCircuitBreaker>();
  private readonly timelines = new Map<string, BreakerTransition[]>();
  private readonly transitions = new Emitter<BreakerTransition>();
  private readonly clock: Clock;
  private readonly timelineLimit: number;

  constructor(options: CircuitBreakersOptions = {}) {
    this.options = {
      failureThreshold: options.failureThreshold ?? DEFAULT_BREAKER_OPTIONS.failureThreshold,
      cooldownMs: options.cooldownMs ?? DEFAULT_BREAKER_OPTIONS.cooldownMs,
      maxCooldownMs: options.maxCooldownMs ?? DEFAULT_BREAKER_OPTIONS.maxCooldownMs,
    };
    this.clock = options.clock ?? systemClock;
    this.timelineLimit = options.timelineLimit ?? 100;
  }

  /** Asks to pass; a refused call gets `refusal(toolId)` as its result. */
  admit(toolId: string): Admission {
    const b = this.breaker(toolId);
    return b.isClosed ? 'pass' : b.admit(this.clock.now());
  }

  /** Records how an admitted call ended (error undefined = success). */
  record(toolId: string, admission: Admission, error: ToolError | undefined, slug?: string): void {
    const b = this.breakers.get(toolId);
    if (b === undefined) return;
    if (error === undefined && admission === 'pass') b.succeeded();
    else b.record(admission, error, slug, this.clock.now());
  }

  /** The CIRCUIT_OPEN result for a refused call: the last error, when the probe comes, do not retry now. */
  refusal(toolId: string): ToolFailure {
    const view = this.state(toolId);
    const last = view.lastError ? ` (last error: ${view.lastError.code}: ${view.lastError.message})` : '';
    const head = `Tool '${toolId}' is paused: it failed ${view.consecutiveFailures} times in a row${last}.`;
    const tail = view.probeInFlight
      ? ' A probe call is running now to check whether it has recovered; do not retry now.'
      : ` A probe call will be allowed in ${Math.max(1, Math.ceil(view.cooldownRemainingMs / 1000))} s; do not retry now.`;
    return failure('CIRCUIT_OPEN', head + tail, {
      data: {
        state: view.state,
        retryAfterMs: view.cooldownRemainingMs,
        consecutiveFailures: view.consecutiveFailures,
        ...(view.lastError ? { lastErrorCode: view.lastError.code } : {}),
      },
    });
  }

  state(toolId: string): BreakerView {
    const b = this.breakers.get(toolId);
    if (b === undefined) {
      return {
        toolId,
        state: 'closed',
        consecutiveFailures: 0,
        cooldownRemainingMs: 0,
        cooldownMs: this.options.cooldownMs,
        probeInFlight: false,
        lastError: undefined,
      };
    }
    const now = this.clock.now();
    return {
      toolId,
      state: b.current(now),
      consecutiveFailures: b.consecutiveFailures,
      cooldownRemainingMs: b.cooldownRemaining(now),
      cooldownMs: b.currentCooldownMs,
      probeInFlight: b.isProbing,
      lastError: b.lastError,
    };
  }

  /** Every tool that has a breaker, for the UI's overview. */
  states(): BreakerView[] {
    return [...this.breakers.keys()].sort().map((id) => this.state(id));
  }

  /** Transitions of one tool, oldest first (the last `timelineLimit`). */
  timeline(toolId: string): BreakerTransition[] {
    return [...(this.timelines.get(toolId) ?? [])];
  }

  onTransition(listener: (transition: BreakerTransition) => void): Disposable {
    return this.transitions.on(listener);
  }

  snapshot(): Record<string, BreakerSnapshot> {
    const out: Record<string, BreakerSnapshot> = {};
    for (const [id, b] of this.breakers) out[id] = b.snapshot();
    return out;
  }

  restore(snapshots: Readonly<Record<string, BreakerSnapshot>>): void {
    const now = this.clock.now();
    for (const [id, snap] of Object.entries(snapshots)) this.breaker(id).restore(snap, now);
  }

  /** Closes a tool's circuit by hand (the UI's "reset" button). */
  reset(toolId: string): void {
    this.breakers.get(toolId)?.reset(this.clock.now(), 'reset by hand');
  }

  private breaker(toolId: string): ToolCircuitBreaker {
    let b = this.breakers.get(toolId);
    if (b === undefined) {
      b = new ToolCircuitBreaker(this.options, (from, to, at, cause) => this.note({ toolId, from, to, at, cause }));
      this.breakers.set(toolId, b);
    }
    return b;
  }

  private note(transition: BreakerTransition): void {
    let line = this.timelines.get(transition.toolId);
    if (line === undefined) this.timelines.set(transition.toolId, (line = []));
    line.push(transition);
    if (line.length > this.timelineLimit) line.splice(0, line.length - this.timelineLimit);
    this.transitions.emit(transition);
  }
}
