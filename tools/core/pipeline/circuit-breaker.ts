/**
 * One tool's circuit breaker (docs/architecture.md#circuit-breaker), a lazy state machine with no
 * timers: the state is evaluated when a call asks to pass.
 *
 *   CLOSED ──N consecutive failures──▶ OPEN ──cooldown──▶ HALF_OPEN (exactly one probe)
 *                                                          ├─ success ─▶ CLOSED
 *                                                          └─ failure ─▶ OPEN, cooldown ×2 (≤ max)
 *
 * Only failures that say the tool is unwell count (EXECUTION_FAILED, TIMEOUT, UNKNOWN); the
 * caller's own mistakes, cancellations and failures its arguments cause every time
 * (`data.deterministic`, e.g. a regex past its CPU bound) are neutral, so one caller cannot open
 * the circuit for everyone. The state can be saved as a plain discriminated union and restored
 * after a restart. What it keeps of the last error is its code and slug, never its message: a
 * breaker is shared by every session, the message is the caller's.
 */
import type { ToolError, ToolErrorCode } from '../result';

export type BreakerStateName = 'closed' | 'open' | 'half_open';

export interface BreakerLastError {
  code: ToolErrorCode;
  /** errorSlug of the failure: shown to the model in the refusal and to the person in the UI. */
  slug: string;
  at: number;
}

/** The persisted form of a breaker. A probe in flight is not persisted: after a restore it may start again. */
export type BreakerSnapshot =
  | { state: 'closed'; consecutiveFailures: number; lastError?: BreakerLastError }
  | { state: 'open'; openedAt: number; cooldownMs: number; consecutiveFailures: number; lastError?: BreakerLastError }
  | { state: 'half_open'; cooldownMs: number; consecutiveFailures: number; lastError?: BreakerLastError };

export interface BreakerOptions {
  /** Consecutive failures that open the circuit; default 5. */
  failureThreshold: number;
  /** First cooldown; default 30 s. */
  cooldownMs: number;
  /** Cap of the doubling cooldown; default 5 min. */
  maxCooldownMs: number;
}

export const DEFAULT_BREAKER_OPTIONS: Readonly<BreakerOptions> = {
  failureThreshold: 5,
  cooldownMs: 30_000,
  maxCooldownMs: 300_000,
};

/** What `admit` answers: run normally, run as the half-open probe, or refused. */
export type Admission = 'pass' | 'probe' | 'refused';

export type TransitionSink = (from: BreakerStateName, to: BreakerStateName, at: number, cause: string) => void;

const COUNTING: ReadonlySet<ToolErrorCode> = new Set(['EXECUTION_FAILED', 'TIMEOUT', 'UNKNOWN']);

/** Whether a failure says the tool itself is unwell (and so counts towards opening the circuit). */
export function countsAsBreakerFailure(error: ToolError): boolean {
  return COUNTING.has(error.code) && error.data?.cancelled !== true && error.data?.deterministic !== true;
}

export class ToolCircuitBreaker {
  private stateName: BreakerStateName = 'closed';
  private failures = 0;
  private openedAt = 0;
  private cooldownMs: number;
  private probeInFlight = false;
  private last: BreakerLastError | undefined;

  constructor(
    private readonly options: BreakerOptions,
    private readonly onTransition: TransitionSink,
  ) {
    this.cooldownMs = options.cooldownMs;
  }

  /** The state at `now`, moving OPEN to HALF_OPEN when the cooldown is over. */
  current(now: number): BreakerStateName {
    if (this.stateName === 'open' && now - this.openedAt >= this.cooldownMs) {
      this.move('half_open', now, 'cooldown elapsed');
      this.probeInFlight = false;
    }
    return this.stateName;
  }

  get isClosed(): boolean {
    return this.stateName === 'closed';
  }

  /** A success of a call admitted while closed: the common case, with no clock read. */
  succeeded(): void {
    if (this.stateName === 'closed') this.failures = 0;
  }

  admit(now: number): Admission {
    const state = this.current(now);
    if (state === 'closed') return 'pass';
    if (state === 'open' || this.probeInFlight) return 'refused';
    this.probeInFlight = true;
    return 'probe';
  }

  /** Records the end of an admitted call. Only the probe decides a half-open breaker. */
  record(admission: Admission, error: ToolError | undefined, slug: string | undefined, now: number): void {
    if (admission === 'refused') return;
    const counts = error !== undefined && countsAsBreakerFailure(error);
    if (admission === 'probe') {
      if (this.stateName !== 'half_open' || !this.probeInFlight) return;
      this.probeInFlight = false;
      if (error === undefined) {
        this.failures = 0;
        this.cooldownMs = this.options.cooldownMs;
        this.move('closed', now, 'probe succeeded');
      } else if (counts) {
        this.noteFailure(error, slug, now);
        this.cooldownMs = Math.min(this.options.maxCooldownMs, this.cooldownMs * 2);
        this.openedAt = now;
        this.move('open', now, `probe failed (${this.last?.slug})`);
      }
      return; // a neutral probe result leaves the slot free for the next call
    }
    if (this.stateName !== 'closed') return; // a call admitted before the circuit opened no longer decides anything
    if (error === undefined) {
      this.failures = 0;
      return;
    }
    if (!counts) return;
    this.noteFailure(error, slug, now);
    if (this.failures >= this.options.failureThreshold) {
      this.openedAt = now;
      this.move('open', now, `${this.failures} consecutive failures (last: ${this.last?.slug})`);
    }
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  get lastError(): BreakerLastError | undefined {
    return this.last;
  }

  get isProbing(): boolean {
    return this.stateName === 'half_open' && this.probeInFlight;
  }

  get currentCooldownMs(): number {
    return this.cooldownMs;
  }

  /** Ms until the probe is allowed; 0 unless open. */
  cooldownRemaining(now: number): number {
    return this.current(now) === 'open' ? Math.max(0, this.openedAt + this.cooldownMs - now) : 0;
  }

  snapshot(): BreakerSnapshot {
    const lastError = this.last ? { ...this.last } : undefined;
    const common = lastError
      ? { consecutiveFailures: this.failures, lastError }
      : { consecutiveFailures: this.failures };
    switch (this.stateName) {
      case 'closed':
        return { state: 'closed', ...common };
      case 'open':
        return { state: 'open', openedAt: this.openedAt, cooldownMs: this.cooldownMs, ...common };
      case 'half_open':
        return { state: 'half_open', cooldownMs: this.cooldownMs, ...common };
    }
  }

  restore(snapshot: BreakerSnapshot, now: number): void {
    const from = this.stateName;
    this.failures = snapshot.consecutiveFailures;
    this.last = snapshot.lastError ? { ...snapshot.lastError } : undefined;
    this.probeInFlight = false;
    this.cooldownMs = snapshot.state === 'closed' ? this.options.cooldownMs : snapshot.cooldownMs;
    if (snapshot.state === 'open') this.openedAt = snapshot.openedAt;
    if (from !== snapshot.state) this.move(snapshot.state, now, 'restored');
  }

  reset(now: number, cause = 'reset'): void {
    this.failures = 0;
    this.probeInFlight = false;
    this.cooldownMs = this.options.cooldownMs;
    if (this.stateName !== 'closed') this.move('closed', now, cause);
  }

  private noteFailure(error: ToolError, slug: string | undefined, now: number): void {
    this.failures++;
    this.last = { code: error.code, slug: slug ?? error.code.toLowerCase().replace(/_/g, '-'), at: now };
  }

  private move(to: BreakerStateName, at: number, cause: string): void {
    const from = this.stateName;
    this.stateName = to;
    this.onTransition(from, to, at, cause);
  }
}
