/**
 * A command's output as the chunks it arrived in, read without joining them: a raw screen frame is
 * 10 MB, and joining it is 10 MB more to allocate, copy and collect (Node counts a Buffer's memory
 * towards the next full garbage collection).
 */
export class ByteChunks {
  /** Where each chunk starts in the whole. */
  private readonly starts: number[] = [];
  /** The chunk the last `at` found: reads that move forward find the next one in a step. */
  private hint = 0;

  constructor(
    readonly chunks: readonly Buffer[],
    readonly length = chunks.reduce((n, c) => n + c.length, 0),
  ) {
    let at = 0;
    for (const c of chunks) {
      this.starts.push(at);
      at += c.length;
    }
  }

  /** The first `n` bytes (fewer when there are fewer), as one Buffer. */
  head(n: number): Buffer {
    const parts: Buffer[] = [];
    let left = Math.min(n, this.length);
    for (const c of this.chunks) {
      if (left <= 0) break;
      parts.push(c.length > left ? c.subarray(0, left) : c);
      left -= Math.min(c.length, left);
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** The byte at `index`; undefined past the end. */
  at(index: number): number | undefined {
    if (index < 0 || index >= this.length) return undefined;
    let i = this.hint;
    if (index < this.starts[i]!) i = 0;
    while (index >= this.starts[i]! + this.chunks[i]!.length) i++;
    this.hint = i;
    return this.chunks[i]![index - this.starts[i]!];
  }

  /** Copies bytes from `from` on, in order: each call continues where the last one ended. */
  reader(from: number): (target: Buffer, targetStart: number, length: number) => void {
    let chunk = 0;
    while (chunk < this.chunks.length && from >= this.starts[chunk]! + this.chunks[chunk]!.length) chunk++;
    let offset = chunk < this.chunks.length ? from - this.starts[chunk]! : 0;
    return (target, targetStart, length) => {
      let written = 0;
      while (written < length && chunk < this.chunks.length) {
        const source = this.chunks[chunk]!;
        const n = Math.min(length - written, source.length - offset);
        source.copy(target, targetStart + written, offset, offset + n);
        written += n;
        offset += n;
        if (offset === source.length) {
          chunk++;
          offset = 0;
        }
      }
      if (written < length) throw new RangeError(`read past the end: ${length - written} byte(s) missing`);
    };
  }
}
