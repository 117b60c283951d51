/**
 * The names of per-target breakers, for the person watching the Breakers page: a breaker is kept
 * and stored by the digest of its target (breaker-key.ts), since a target comes from a call's
 * arguments; a person still needs to know which host or phone a breaker is about. So the host
 * process holds digest → target here, in memory only: bounded (the least recently used name goes
 * first), never persisted, never exported, never written into a span, a log or an MCP answer.
 * Only the person's UI API reads it; after a restart only the digest is known.
 */

export const BREAKER_LABEL_LIMIT = 256;
const MAX_LABEL = 200;

export class BreakerLabels {
  private readonly labels = new Map<string, string>();
  /** The key noted last: calls to one target in a row cost one comparison. */
  private newest: string | undefined;

  constructor(readonly limit = BREAKER_LABEL_LIMIT) {}

  /** A call reached the breaker `key` (`toolId@<digest>`) of this target. */
  note(key: string, target: string): void {
    if (key === this.newest) return;
    this.newest = key;
    this.labels.delete(key);
    this.labels.set(key, target.length > MAX_LABEL ? `${target.slice(0, MAX_LABEL - 1)}…` : target);
    if (this.labels.size > this.limit) {
      const oldest = this.labels.keys().next().value;
      if (oldest !== undefined) this.labels.delete(oldest);
    }
  }

  /** The target of a per-target breaker, while this process remembers it. */
  labelOf(key: string): string | undefined {
    return this.labels.get(key);
  }

  get size(): number {
    return this.labels.size;
  }

  /** Never serialised: whatever writes this object down (a snapshot, an export) writes nothing of it. */
  toJSON(): undefined {
    return undefined;
  }
}
