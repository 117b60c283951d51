/**
 * A bounded first-in-first-out log: network requests, console lines and recent actions must never
 * grow without limit in a browser session that runs for hours.
 */
export class RingBuffer<T> {
  private readonly items: T[] = [];
  private dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`RingBuffer capacity must be a positive integer, got ${capacity}`);
  }

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.items.shift();
      this.dropped += 1;
    }
  }

  /** Oldest first. */
  toArray(): T[] {
    return [...this.items];
  }

  /** The newest `n` items, oldest first. */
  last(n: number): T[] {
    return n <= 0 ? [] : this.items.slice(-n);
  }

  clear(): void {
    this.items.length = 0;
  }

  get size(): number {
    return this.items.length;
  }

  /** How many items were evicted since the buffer was made. */
  get evicted(): number {
    return this.dropped;
  }
}
