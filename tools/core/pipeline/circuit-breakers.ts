/**
 * The breakers of all tools: admission and recording for the pipeline, refusal texts for the
 * model, and for the UI every transition (`{ toolId, from, to, at, cause }`) as a bounded
 * per-breaker timeline, a stream of listeners, and a state query with the cooldown remaining.
 *
 * A breaker is keyed by its tool, or by `toolId@<digest>` for a tool that keeps one per target
 * (breaker-key.ts). Only a counted failure creates a breaker, and their number is bounded, so calls
 * to ever new targets cannot grow the map. Nothing a breaker says carries argument text: refusals
 * name the tool, the target's digest and the last error's code and slug.
 */
import { type Disposable, Emitter } from '../disposable';
import { type ToolError, type ToolFailure, failure } from '../result';
import { codeSlug } from '../trace/error-slug';
import { parseBreakerKey } from './breaker-key';
import { readBreakerSnapshots } from './breaker-snapshot';
import { type Clock, systemClock } from './clock';
import {
  type Admission,
  type BreakerLastError,
  type BreakerOptions,
  type BreakerSnapshot,
  type BreakerStateName,
  DEFAULT_BREAKER_OPTIONS,
  ToolCircuitBreaker,
  countsAsBreakerFailure,
} from './circuit-breaker';

export interface BreakerTransition {
  toolId: string;
  from: BreakerStateName;
  to: BreakerStateName;
  at: number;
  cause: string;
}

export interface BreakerView {
  /** The breaker's key: the tool id, or `toolId@<digest>` for one target of the tool. */
  toolId: string;
  /** The digest of the target, for a per-target breaker. */
  target?: string;
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
  /** Breakers (and timelines) kept at most; the oldest closed one goes first. Default 1000. */
  maxBreakers?: number;
}

/** `TIMEOUT`, or `EXECUTION_FAILED, connect-econnrefused` when the slug says more than the code. */
export function describeLastError(last: Pick<BreakerLastError, 'code' | 'slug'>): string {
  return last.slug === codeSlug(last.code) ? last.code : `${last.code}, ${last.slug}`;
}

export class CircuitBreakers {
  readonly options: Readonly<BreakerOptions>;
  private readonly breakers = new Map<string, ToolCircuitBreaker>();
  private readonly timelines = new Map<string, BreakerTransition[]>();
  private readonly transitions = new Emitter<BreakerTransition>();
  private readonly clock: Clock;
  private readonly timelineLimit: number;
  private readonly maxBreakers: number;

  constructor(options: CircuitBreakersOptions = {}) {
    this.options = {
      failureThreshold: options.failureThreshold ?? DEFAULT_BREAKER_OPTIONS.failureThreshold,
      cooldownMs: options.cooldownMs ?? DEFAULT_BREAKER_OPTIONS.cooldownMs,
      maxCooldownMs: options.maxCooldownMs ?? DEFAULT_BREAKER_OPTIONS.maxCooldownMs,
    };
    this.clock = options.clock ?? systemClock;
    this.timelineLimit = options.timelineLimit ?? 100;
    this.maxBreakers = options.maxBreakers ?? 1000;
  }

  /** Asks to pass; a refused call gets `refusal(key)` as its result. */
  admit(key: string): Admission {
    const b = this.breakers.get(key);
    return b === undefined || b.isClosed ? 'pass' : b.admit(this.clock.now());
  }

  /** Records how an admitted call ended (error undefined = success). */
  record(key: string, admission: Admission, error: ToolError | undefined, slug?: string): void {
    let b = this.breakers.get(key);
    if (b === undefined) {
      // A breaker that never failed is a closed one with nothing to remember.
      if (error === undefined || admission === 'refused' || !countsAsBreakerFailure(error)) return;
      b = this.breaker(key);
    }
    if (error === undefined && admission === 'pass') b.succeeded();
    else b.record(admission, error, slug, this.clock.now());
  }

  /**
   * The CIRCUIT_OPEN result for a refused call: the tool, its target's digest, the last error's code, when the
   * probe comes.
   */
  refusal(key: string): ToolFailure {
    const view = this.state(key);
    const { toolId, target } = parseBreakerKey(key);
    const where = target !== undefined ? ` for target ${target}` : '';
    const last = view.lastError ? ` (last error: ${describeLastError(view.lastError)})` : '';
    const head = `Tool '${toolId}' is paused${where}: it failed ${view.consecutiveFailures} times in a row${last}.`;
    const waitS = Math.max(1, Math.ceil(view.cooldownRemainingMs / 1000));
    const tail = view.probeInFlight
      ? ' A probe call is running now to check whether it has recovered; do not retry now.'
      : ` A probe call will be allowed in ${waitS} s; do not retry now.`;
    const others = target !== undefined ? ' Calls to its other targets are not paused.' : '';
    return failure('CIRCUIT_OPEN', head + tail + others, {
      data: {
        state: view.state,
        retryAfterMs: view.cooldownRemainingMs,
        consecutiveFailures: view.consecutiveFailures,
        ...(target !== undefined ? { target } : {}),
        ...(view.lastError ? { lastErrorCode: view.lastError.code, lastErrorSlug: view.lastError.slug } : {}),
      },
    });
  }

  state(key: string): BreakerView {
    const toolId = key;
    const { target } = parseBreakerKey(key);
    const scoped = target !== undefined ? { target } : {};
    const b = this.breakers.get(key);
    if (b === undefined) {
      return {
        toolId,
        ...scoped,
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
      ...scoped,
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

  /**
   * Restores saved state. The input is read as untrusted (breaker-snapshot.ts): an old snapshot's
   * message texts are dropped and target names digested; malformed entries are skipped.
   */
  restore(saved: unknown): void {
    const now = this.clock.now();
    for (const [key, snap] of Object.entries(readBreakerSnapshots(saved))) this.breaker(key).restore(snap, now);
  }

  /** Closes a breaker by hand (the UI's "reset" button). */
  reset(key: string): void {
    this.breakers.get(key)?.reset(this.clock.now(), 'reset by hand');
  }

  private breaker(key: string): ToolCircuitBreaker {
    let b = this.breakers.get(key);
    if (b === undefined) {
      if (this.breakers.size >= this.maxBreakers) this.evictOne();
      b = new ToolCircuitBreaker(this.options, (from, to, at, cause) =>
        this.note({ toolId: key, from, to, at, cause }),
      );
      this.breakers.set(key, b);
    }
    return b;
  }

  /** Drops the oldest closed breaker (or, when every one is open, the oldest). */
  private evictOne(): void {
    let victim: string | undefined;
    for (const [key, b] of this.breakers) {
      if (b.isClosed) {
        victim = key;
        break;
      }
      victim ??= key;
    }
    if (victim !== undefined) this.breakers.delete(victim);
  }

  private note(transition: BreakerTransition): void {
    let line = this.timelines.get(transition.toolId);
    if (line === undefined) {
      if (this.timelines.size >= this.maxBreakers) {
        const oldest = this.timelines.keys().next();
        if (!oldest.done) this.timelines.delete(oldest.value);
      }
      this.timelines.set(transition.toolId, (line = []));
    }
    line.push(transition);
    if (line.length > this.timelineLimit) line.splice(0, line.length - this.timelineLimit);
    this.transitions.emit(transition);
  }
}
