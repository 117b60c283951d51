/**
 * The newest bytes of a command's output, at most about `limit` of them, and how many came in all:
 * a command printing gigabytes costs no more memory than one printing a line. The pieces are kept
 * as they came and joined only when asked for.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private held = 0;
  private total = 0;

  constructor(private readonly limit: number) {}

  /** Bytes that came in all. */
  get bytes(): number {
    return this.total;
  }

  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.chunks.push(bytes);
    this.held += bytes.length;
    this.total += bytes.length;
    while (this.chunks.length > 1 && this.held - this.chunks[0]!.length >= this.limit)
      this.held -= this.chunks.shift()!.length;
  }

  /** The last `max` bytes (default: the limit). */
  last(max = this.limit): Buffer {
    const n = Math.min(max, this.held);
    const parts: Buffer[] = [];
    let got = 0;
    for (let i = this.chunks.length - 1; i >= 0 && got < n; i--) {
      const c = this.chunks[i]!;
      const take = Math.min(c.length, n - got);
      parts.push(take === c.length ? c : c.subarray(c.length - take));
      got += take;
    }
    return Buffer.concat(parts.reverse());
  }
}
