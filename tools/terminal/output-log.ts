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

/** Pieces smaller than this are copied into blocks: a program writing a line per write (busybox) leaves few pieces. */
const SMALL = 1024;
const BLOCK = 16 * 1024;

export class OutputLog {
  private chunks: Buffer[] = [];
  /** Index of the first kept chunk: dropping from the front moves it on, and the array is compacted now and then. */
  private head = 0;
  /** The block small pieces are copied into; the last chunk is its filled part while it is open. */
  private block: Buffer | undefined;
  private blockUsed = 0;
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
      this.head = 0;
      this.block = undefined;
      this.kept = this.budget;
      return;
    }
    if (data.length < SMALL) {
      if (!this.block || this.blockUsed + data.length > BLOCK) {
        this.block = Buffer.allocUnsafe(BLOCK);
        this.blockUsed = 0;
        this.chunks.push(this.block.subarray(0, 0));
      }
      data.copy(this.block, this.blockUsed);
      this.blockUsed += data.length;
      this.chunks[this.chunks.length - 1] = this.block.subarray(0, this.blockUsed);
    } else {
      this.block = undefined;
      this.chunks.push(data);
    }
    this.kept += data.length;
    while (this.kept > this.budget) {
      // The open block is never cut from the front: it is closed first.
      if (this.head === this.chunks.length - 1) this.block = undefined;
      const chunk = this.chunks[this.head]!;
      const excess = this.kept - this.budget;
      if (chunk.length <= excess) {
        this.head++;
        this.kept -= chunk.length;
        this.first += chunk.length;
      } else {
        this.chunks[this.head] = chunk.subarray(excess);
        this.kept -= excess;
        this.first += excess;
      }
    }
    if (this.head > 64 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Memory the kept bytes hold: the whole of each buffer a kept piece is part of (a piece cut from
   * a large read pins all of it), each counted once.
   */
  retainedBytes(): number {
    const seen = new Set<ArrayBufferLike>();
    let n = 0;
    for (let i = this.head; i < this.chunks.length; i++) {
      const b = this.chunks[i]!.buffer;
      if (!seen.has(b)) {
        seen.add(b);
        n += b.byteLength;
      }
    }
    return n;
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
    for (let i = this.head; i < this.chunks.length; i++) {
      const chunk = this.chunks[i]!;
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
