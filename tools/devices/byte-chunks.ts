/**
 * A command's output as the chunks it arrived in, read without joining them: a raw screen frame is
 * 10 MB, and joining it is 10 MB more to allocate, copy and collect (Node counts a Buffer's memory
 * towards the next full garbage collection). It can also be read while it arrives (`arriving`):
 * a reader waits with `ready` for the bytes it needs, so a frame is encoded as it comes in.
 */
export class ByteChunks {
  private readonly list: Buffer[] = [];
  /** Where each chunk starts in the whole. */
  private readonly starts: number[] = [];
  private total = 0;
  private ended = false;
  private waiters: { bytes: number; resolve: () => void }[] = [];
  /** The chunk the last `at` found: reads that move forward find the next one in a step. */
  private hint = 0;

  /** The whole output, all of it arrived. */
  constructor(chunks: readonly Buffer[]) {
    for (const c of chunks) this.push(c);
    this.end();
  }

  /** An output still arriving: `push` each chunk as it comes, `end` when no more will. */
  static arriving(): ByteChunks {
    const bytes = new ByteChunks([]);
    bytes.ended = false;
    return bytes;
  }

  get length(): number {
    return this.total;
  }

  get chunks(): readonly Buffer[] {
    return this.list;
  }

  /** No more bytes will arrive. */
  get complete(): boolean {
    return this.ended;
  }

  push(chunk: Buffer): void {
    if (this.ended) throw new Error('bytes pushed after the end of the output');
    if (chunk.length === 0) return;
    this.starts.push(this.total);
    this.list.push(chunk);
    this.total += chunk.length;
    this.wake();
  }

  /** No more bytes will arrive (the command ended, failed or was cut off): every waiter goes on. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Settles once the first `bytes` bytes have arrived, or no more will (then there may be fewer). */
  ready(bytes: number): Promise<void> {
    if (this.total >= bytes || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ bytes, resolve }));
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const waiting: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.total >= w.bytes || this.ended) w.resolve();
      else waiting.push(w);
    }
    this.waiters = waiting;
  }

  /** The first `n` bytes (fewer when there are fewer), as one Buffer. */
  head(n: number): Buffer {
    const parts: Buffer[] = [];
    let left = Math.min(n, this.total);
    for (const c of this.list) {
      if (left <= 0) break;
      parts.push(c.length > left ? c.subarray(0, left) : c);
      left -= Math.min(c.length, left);
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** The byte at `index`; undefined past the end (of what has arrived). */
  at(index: number): number | undefined {
    if (index < 0 || index >= this.total) return undefined;
    let i = this.hint;
    if (index < this.starts[i]!) i = 0;
    while (index >= this.starts[i]! + this.list[i]!.length) i++;
    this.hint = i;
    return this.list[i]![index - this.starts[i]!];
  }

  /**
   * Copies bytes from `from` on, in order: each call continues where the last one ended. A read of
   * bytes that have not arrived throws a RangeError (await `ready` first).
   */
  reader(from: number): (target: Buffer, targetStart: number, length: number) => void {
    let chunk = 0;
    let offset = from;
    return (target, targetStart, length) => {
      let written = 0;
      while (written < length && chunk < this.list.length) {
        const source = this.list[chunk]!;
        if (offset >= source.length) {
          offset -= source.length;
          chunk++;
          continue;
        }
        const n = Math.min(length - written, source.length - offset);
        source.copy(target, targetStart + written, offset, offset + n);
        written += n;
        offset += n;
      }
      if (written < length) throw new RangeError(`read past the end: ${length - written} byte(s) missing`);
    };
  }
}
