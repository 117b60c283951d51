/**
 * Decodes H.264 (Annex B) with ffmpeg into grey frames and reads the virtual phone's latency probe
 * (shared/screen-probe.ts) from each: the counter values a viewer of that stream would see. A test
 * pushes access units as they arrive and reads `readings` as they are decoded.
 */
import { spawn } from 'node:child_process';
import { type ProbeReading, type Size, probeInPicture, readProbe } from '../../shared/screen-probe';

export type { Size };

/**
 * The probe in a grey frame of `video` size showing a display of `display` size (letterboxed when
 * the aspects differ).
 */
export function probeInGrey(grey: Uint8Array, video: Size, display: Size): ProbeReading | undefined {
  const { cellCentre } = probeInPicture(video, display);
  return readProbe((col, row) => {
    const centre = cellCentre(col, row);
    return grey[Math.floor(centre.y) * video.width + Math.floor(centre.x)] ?? 0;
  });
}

export class ProbeDecoder {
  readonly readings: (ProbeReading | undefined)[] = [];
  private readonly child;
  private pending = Buffer.alloc(0);
  readonly done: Promise<void>;

  constructor(
    private readonly video: Size,
    private readonly display: Size,
  ) {
    this.child = spawn(
      process.env.TOOLGATE_FFMPEG || 'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'h264',
        '-i',
        'pipe:0',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        'pipe:1',
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    this.child.stdin.on('error', () => undefined);
    const frameBytes = video.width * video.height;
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.pending = Buffer.concat([this.pending, chunk]);
      while (this.pending.length >= frameBytes) {
        this.readings.push(probeInGrey(this.pending.subarray(0, frameBytes), this.video, this.display));
        this.pending = this.pending.subarray(frameBytes);
      }
    });
    this.done = new Promise((resolve) => this.child.once('close', () => resolve()));
  }

  push(unit: Uint8Array): void {
    this.child.stdin.write(unit);
  }

  /** Decodes what is left, then resolves. */
  async close(): Promise<void> {
    this.child.stdin.end();
    await this.done;
  }
}

/** Counter values missing between the first and the last one read (wrap-free runs). */
export function missingCounters(counters: readonly number[]): number[] {
  const seen = new Set(counters);
  const missing: number[] = [];
  if (counters.length === 0) return missing;
  for (let c = Math.min(...counters); c <= Math.max(...counters); c++) if (!seen.has(c)) missing.push(c);
  return missing;
}
