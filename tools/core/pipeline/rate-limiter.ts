/**
 * Rate limiter (docs/architecture.md#rate-limiter, ToolRateLimiter): one token bucket per tool,
 * capacity = the per-minute quota, refilled continuously (capacity / 60 000 tokens per ms). Over
 * the limit the call is refused at once, never queued, so a runaway loop sees the refusal
 * immediately; the refusal says when the next token is back.
 */
import { type ToolFailure, failure } from '../result';
import { type Clock, systemClock } from './clock';

const MINUTE_MS = 60_000;
/** Refill is fractional; this absorbs the rounding of elapsed·rate so a token due at t is there at t. */
const EPSILON = 1e-9;

export class TokenBucket {
  private tokens: number;
  private last: number;
  private ratePerMs: number;

  constructor(
    private capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
    this.ratePerMs = capacity / MINUTE_MS;
  }

  get perMinute(): number {
    return this.capacity;
  }

  /** Changes the quota; tokens above the new capacity are dropped. */
  resize(capacity: number, now: number): void {
    this.refill(now);
    this.capacity = capacity;
    this.ratePerMs = capacity / MINUTE_MS;
    if (this.tokens > capacity) this.tokens = capacity;
  }

  /** 0 when a token was taken; otherwise the ms until one is back (nothing is taken). */
  take(now: number): number {
    this.refill(now);
    if (this.tokens >= 1 - EPSILON) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.ratePerMs - EPSILON));
  }

  available(now: number): number {
    this.refill(now);
    return this.tokens;
  }

  private refill(now: number): void {
    const elapsed = now - this.last;
    if (elapsed > 0) {
      this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.ratePerMs);
      this.last = now;
    }
  }
}

export interface RateLimiterOptions {
  clock?: Clock;
  /** Per-tool quotas that win over the run policy's. */
  perMinute?: Readonly<Record<string, number>>;
  /** Quota for tools whose policy has none; none (unlimited) by default. */
  defaultPerMinute?: number;
}

export class ToolRateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly clock: Clock;
  private readonly overrides: Readonly<Record<string, number>>;
  private readonly defaultPerMinute: number | undefined;

  constructor(options: RateLimiterOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.overrides = options.perMinute ?? {};
    this.defaultPerMinute = options.defaultPerMinute;
  }

  /** The quota that applies to a tool: an override, else the policy's, else the default; undefined = unlimited. */
  quotaFor(toolId: string, policyPerMinute: number | undefined): number | undefined {
    return this.overrides[toolId] ?? policyPerMinute ?? this.defaultPerMinute;
  }

  /** undefined when the call may go on (a token was taken); a RATE_LIMITED refusal otherwise. */
  tryTake(toolId: string, perMinute: number | undefined): ToolFailure | undefined {
    if (perMinute === undefined || !(perMinute > 0) || perMinute === Infinity) return undefined;
    const now = this.clock.now();
    let bucket = this.buckets.get(toolId);
    if (bucket === undefined) this.buckets.set(toolId, (bucket = new TokenBucket(perMinute, now)));
    else if (bucket.perMinute !== perMinute) bucket.resize(perMinute, now);
    const waitMs = bucket.take(now);
    if (waitMs === 0) return undefined;
    const seconds = Math.ceil(waitMs / 1000);
    return failure(
      'RATE_LIMITED',
      `Rate limit reached for '${toolId}': at most ${perMinute} calls per minute. ` +
        `A token is back in ${seconds} s; do not call it before then.`,
      { data: { retryAfterMs: waitMs, perMinute } },
    );
  }

  /** Tokens left for a tool (fractional), or undefined when it has no bucket yet. */
  available(toolId: string): number | undefined {
    return this.buckets.get(toolId)?.available(this.clock.now());
  }

  reset(toolId?: string): void {
    if (toolId === undefined) this.buckets.clear();
    else this.buckets.delete(toolId);
  }
}
