/**
 * A terminal's raw output, kept up to a byte budget, addressed by absolute offsets: byte 0 is the
 * first the program ever wrote. A reader holds an offset (a cursor) and asks for what came after
 * it; when the budget dropped bytes the reader had not seen, the answer says how many.
 */

export interface LogRead {
  data: Buffer;
  /** Where the returned bytes start (later than asked when older bytes were dropped). */
  from: number;
  /** The offset after the returned bytes: the cursor to read on from. */
  to: number;
  /** Bytes between the asked offset and `from` that are no longer kept. */
  dropped: number;
  /** Bytes after `to` that were not returned for lack of room. */
  more: number;
}

export class OutputLog {
  private chunks: Buffer[] = [];
  private kept = 0;
  /** Absolute offset of the first kept byte. */
  private first = 0;

  constructor(private readonly budget: number) {}

  /** Offset after the newest byte (the total ever written). */
  get end(): number {
    return this.first + this.kept;
  }

  /** Offset of the oldest byte still kept. */
  get start(): number {
    return this.first;
  }

  append(data: Buffer): void {
    if (data.length === 0) return;
    if (data.length >= this.budget) {
      this.first += this.kept + data.length - this.budget;
      this.chunks = [Buffer.from(data.subarray(data.length - this.budget))];
      this.kept = this.budget;
      return;
    }
    this.chunks.push(data);
    this.kept += data.length;
    while (this.kept > this.budget) {
      const head = this.chunks[0]!;
      const excess = this.kept - this.budget;
      if (head.length <= excess) {
        this.chunks.shift();
        this.kept -= head.length;
        this.first += head.length;
      } else {
        this.chunks[0] = head.subarray(excess);
        this.kept -= excess;
        this.first += excess;
      }
    }
  }

  /** Up to `max` bytes from offset `from` on (clamped to what is kept). */
  read(from: number, max: number): LogRead {
    const start = Math.min(Math.max(from, this.first), this.end);
    const dropped = Math.max(0, Math.min(this.first, this.end) - Math.max(0, from));
    const stop = Math.min(this.end, start + Math.max(0, max));
    return { data: this.slice(start, stop), from: start, to: stop, dropped, more: this.end - stop };
  }

  /** The last `max` bytes (what a new viewer replays). */
  tail(max: number): LogRead {
    return this.read(Math.max(this.first, this.end - max), max);
  }

  private slice(from: number, to: number): Buffer {
    if (to <= from) return Buffer.alloc(0);
    const parts: Buffer[] = [];
    let offset = this.first;
    for (const chunk of this.chunks) {
      const chunkEnd = offset + chunk.length;
      if (chunkEnd > from && offset < to) {
        parts.push(chunk.subarray(Math.max(0, from - offset), Math.min(chunk.length, to - offset)));
      }
      offset = chunkEnd;
      if (offset >= to) break;
    }
    return Buffer.concat(parts);
  }
}
