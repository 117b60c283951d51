/**
 * Cuts an H.264 byte stream in Annex B (what `screenrecord --output-format=h264 -` writes: NAL
 * units after 00 00 01 start codes, no sizes, no timestamps) into access units, one per picture.
 *
 * A NAL unit is complete only when the next start code arrives, and a picture only when the next
 * one begins (H.264 7.4.1.2.3: an access unit delimiter, SPS, PPS or SEI after a slice, or a slice
 * whose first macroblock is 0). Waiting for the next picture would show every frame one frame late,
 * and the last one before a still screen never, so `flush()` ends the pending picture when the
 * stream has paused; the reader calls it when no byte has come for a moment (screenrecord writes
 * each picture in one go).
 */

export interface AccessUnit {
  /** The NAL units of one picture, each after a 4-byte start code. */
  data: Buffer;
  /** Holds an IDR slice: a decoder can start here. */
  key: boolean;
  /** The SPS in it, if any (the VideoDecoder codec string comes from its first bytes). */
  sps: Buffer | undefined;
  pps: Buffer | undefined;
}

const START = Buffer.from([0, 0, 1]);
const START4 = Buffer.from([0, 0, 0, 1]);

export const NAL = { slice: 1, idr: 5, sei: 6, sps: 7, pps: 8, aud: 9 } as const;

export function nalType(nal: Buffer): number {
  return (nal[0] ?? 0) & 0x1f;
}

function isVcl(type: number): boolean {
  return type >= 1 && type <= 5;
}

/** `avc1.PPCCLL` (RFC 6381) from an SPS: profile_idc, the constraint flags and level_idc. */
export function codecString(sps: Buffer): string {
  const hex = (i: number) => (sps[i] ?? 0).toString(16).padStart(2, '0');
  return `avc1.${hex(1)}${hex(2)}${hex(3)}`;
}

export class AnnexBSplitter {
  /** Bytes from the last start code on: the NAL unit still being received. */
  private tail = Buffer.alloc(0);
  private scanFrom = 0;
  private started = false;
  private nals: Buffer[] = [];
  private hasVcl = false;
  /** Bytes seen before the first start code: what a failing screenrecord prints instead of video. */
  preamble = '';

  /**
   * Times bytes came after a flush that did not begin a NAL unit: the flushed unit had been cut short
   * (the stream paused inside a picture), so pictures up to the next key frame may be damaged.
   */
  damaged = 0;
  /** After a flush: the next bytes should begin with a start code. */
  private resync = false;

  /** Adds bytes; returns the pictures they completed. */
  push(chunk: Buffer): AccessUnit[] {
    const units: AccessUnit[] = [];
    let data = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    if (!this.started || this.resync) {
      const first = data.indexOf(START);
      // Bytes before the first start code: a failing screenrecord's message, or the rest of a unit cut short.
      const before = data.subarray(0, first < 0 ? Math.max(0, data.length - 2) : first);
      const strayBytes = before.length > 0 && !(before.length === 1 && before[0] === 0);
      if (!this.started) this.notePreamble(before);
      else if (strayBytes && this.resync) {
        this.damaged++;
        this.resync = false;
      }
      if (first < 0) {
        // Keep the last two bytes: they may begin a start code.
        this.tail = Buffer.from(data.subarray(before.length));
        this.resync = this.started;
        return units;
      }
      data = data.subarray(first);
      this.started = true;
      this.resync = false;
      this.scanFrom = 3;
    }
    for (;;) {
      const next = data.indexOf(START, this.scanFrom);
      if (next < 0) break;
      this.addNal(data.subarray(3, next), units);
      data = data.subarray(next);
      this.scanFrom = 3;
    }
    // Copied so the chunk it came from can be freed; the next scan starts where a start code could still hide.
    this.tail = Buffer.from(data);
    this.scanFrom = Math.max(3, this.tail.length - 2);
    return units;
  }

  /** The stream paused: the NAL unit being received is complete, and so is the picture it ends. */
  flush(): AccessUnit[] {
    const units: AccessUnit[] = [];
    if (!this.started) {
      this.notePreamble(this.tail);
      this.tail = Buffer.alloc(0);
    }
    if (this.started && this.tail.length > 3) {
      this.addNal(this.tail.subarray(3), units);
      this.tail = Buffer.alloc(0);
      this.resync = true;
    }
    const last = this.endUnit();
    if (last) units.push(last);
    return units;
  }

  /** True while a NAL unit or a picture is only partly received. */
  get pending(): boolean {
    return this.nals.length > 0 || this.tail.length > 3;
  }

  private notePreamble(bytes: Buffer): void {
    if (this.preamble.length < 4096 && bytes.length > 0) this.preamble += bytes.toString('utf8');
  }

  private addNal(raw: Buffer, out: AccessUnit[]): void {
    // trailing_zero_8bits, and the first zero of a 4-byte start code, belong to no NAL unit.
    let end = raw.length;
    while (end > 0 && raw[end - 1] === 0) end--;
    if (end === 0) return;
    const nal = Buffer.from(raw.subarray(0, end));
    const type = nalType(nal);
    const startsPicture =
      type === NAL.aud ||
      type === NAL.sps ||
      type === NAL.pps ||
      type === NAL.sei ||
      (type >= 14 && type <= 18) ||
      // first_mb_in_slice is ue(v) first in the slice header: 0 is the single bit 1.
      (isVcl(type) && ((nal[1] ?? 0) & 0x80) !== 0);
    if (this.hasVcl && startsPicture) {
      const unit = this.endUnit();
      if (unit) out.push(unit);
    }
    this.nals.push(nal);
    if (isVcl(type)) this.hasVcl = true;
  }

  private endUnit(): AccessUnit | undefined {
    if (!this.hasVcl) return undefined;
    const nals = this.nals;
    this.nals = [];
    this.hasVcl = false;
    return {
      data: Buffer.concat(nals.flatMap((n) => [START4, n])),
      key: nals.some((n) => nalType(n) === NAL.idr),
      sps: nals.find((n) => nalType(n) === NAL.sps),
      pps: nals.find((n) => nalType(n) === NAL.pps),
    };
  }
}

/** A key picture with the SPS and PPS it needs in front, so a decoder can start at it. */
export function withParameterSets(unit: AccessUnit, sps: Buffer | undefined, pps: Buffer | undefined): AccessUnit {
  if (!unit.key || (unit.sps && unit.pps) || !sps || !pps) return unit;
  return { ...unit, data: Buffer.concat([START4, sps, START4, pps, unit.data]), sps, pps };
}
