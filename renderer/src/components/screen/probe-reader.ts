/**
 * Reads the latency probe (shared/screen-probe.ts) back from what the canvas shows: where the
 * phone drew it, scaled to the canvas (the picture letterboxed inside it when the aspects differ),
 * and how old the frame is by the phone's clock, which is this machine's clock when the phone is the
 * virtual one. A phone that draws no probe reads as nothing, and is then only looked at now and then.
 */
import {
  type ProbeReading,
  type Size,
  probeAge,
  probeInPicture,
  readProbe,
  unwrapCounter,
} from '../../../../shared/screen-probe';

export type { Size };

export function readCanvasProbe(ctx: CanvasRenderingContext2D, canvas: Size, display: Size): ProbeReading | undefined {
  const { scale, offsetX, offsetY, geometry: g, cellCentre } = probeInPicture(canvas, display);
  const x0 = Math.max(0, Math.floor(offsetX + g.left * scale));
  const y0 = Math.max(0, Math.floor(offsetY + g.top * scale));
  const w = Math.min(canvas.width - x0, Math.ceil(g.width * scale) + 1);
  const h = Math.min(canvas.height - y0, Math.ceil(g.height * scale) + 1);
  if (w <= 0 || h <= 0) return undefined;
  const pixels = ctx.getImageData(x0, y0, w, h).data;
  return readProbe((col, row) => {
    const centre = cellCentre(col, row);
    const x = Math.min(w - 1, Math.floor(centre.x) - x0);
    const y = Math.min(h - 1, Math.floor(centre.y) - y0);
    const i = (y * w + x) * 4;
    return 0.299 * (pixels[i] ?? 0) + 0.587 * (pixels[i + 1] ?? 0) + 0.114 * (pixels[i + 2] ?? 0);
  });
}

export interface ProbeSample {
  /** The phone's frame counter (unwrapped). */
  counter: number;
  /** ms from the phone drawing the frame to this canvas showing it. */
  latencyMs: number;
}

const WINDOW_MS = 2_000;
/** After this many frames without a probe, look only at every LOOK_EVERY-th frame. */
const GIVE_UP_AFTER = 30;
const LOOK_EVERY = 60;

export class ProbeTracker {
  private last: number | undefined;
  private misses = 0;
  private frames = 0;
  private readonly recent: { at: number; latency: number }[] = [];

  /** Whether to read this frame's probe (every frame while the phone draws one). */
  shouldLook(): boolean {
    this.frames++;
    return this.misses < GIVE_UP_AFTER || this.frames % LOOK_EVERY === 0;
  }

  record(reading: ProbeReading | undefined, now: number): ProbeSample | undefined {
    if (!reading) {
      this.misses++;
      return undefined;
    }
    this.misses = 0;
    const counter = unwrapCounter(reading.counter, this.last);
    this.last = counter;
    const latencyMs = probeAge(reading.time, now);
    this.recent.push({ at: now, latency: latencyMs });
    while ((this.recent[0]?.at ?? now) < now - WINDOW_MS) this.recent.shift();
    return { counter, latencyMs };
  }

  /** The median latency over the last two seconds, and the newest counter. */
  summary(now: number): { counter: number; latencyMs: number } | undefined {
    while ((this.recent[0]?.at ?? now) < now - WINDOW_MS) this.recent.shift();
    if (this.recent.length === 0 || this.last === undefined) return undefined;
    const sorted = this.recent.map((r) => r.latency).sort((a, b) => a - b);
    return { counter: this.last, latencyMs: sorted[Math.floor(sorted.length / 2)] ?? 0 };
  }
}
