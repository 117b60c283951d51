/**
 * One screen capture as a PNG, two ways. `png`: the device encodes (`screencap -p`); cheap on the
 * link, but a phone's (and the virtual device's) PNG encoder is slow. `raw`: the device sends its
 * RGBA pixels (`screencap`) and this host encodes them (png.ts: level-1 deflate on the thread
 * pool). Which is faster depends on the phone and the link; the screen stream measures both.
 */
import { MULTI_DISPLAY_WARNING, splitCaptureText } from './displays';
import type { DeviceManager } from './manager/device-manager';
import { PNG_SIGNATURE, pngSize } from './png';
import { receiveRawFrame } from './raw-frame';

export type CaptureFormat = 'png' | 'raw';

/**
 * Which way of capturing is faster on one phone and link: the first captures alternate between
 * the formats, `trials` each, then the faster (by its quickest capture, encoding included) is kept.
 * A phone whose raw frame this host cannot read (a pixel format other than RGBA/RGBX) keeps `png`.
 */
export class CaptureChoice {
  private readonly times: Record<CaptureFormat, number[]> = { png: [], raw: [] };
  private chosen: CaptureFormat | undefined;

  constructor(
    fixed?: CaptureFormat,
    private readonly trials = 2,
  ) {
    this.chosen = fixed;
  }

  /** The format chosen, if the trials are over (or it was fixed). */
  get decided(): CaptureFormat | undefined {
    return this.chosen;
  }

  next(): CaptureFormat {
    if (this.chosen) return this.chosen;
    if (this.times.png.length >= this.trials && this.times.raw.length >= this.trials) {
      this.chosen = Math.min(...this.times.raw) < Math.min(...this.times.png) ? 'raw' : 'png';
      return this.chosen;
    }
    return this.times.png.length <= this.times.raw.length ? 'png' : 'raw';
  }

  /** How long a capture in `format` took, while trials run. */
  record(format: CaptureFormat, ms: number): void {
    if (!this.chosen) this.times[format].push(ms);
  }

  /** `format` gave no usable frame: a raw failure settles on png; false when there is nothing else. */
  unusable(format: CaptureFormat): boolean {
    if (format !== 'raw' || this.chosen === 'raw') return false;
    this.chosen ??= 'png';
    return true;
  }
}

export interface Capture {
  png: Buffer;
  width: number;
  height: number;
  /** screencap warned that the phone has several displays and took the first (no `-d` was given). */
  multiDisplay: boolean;
}

/**
 * Captures the screen (`display`: SurfaceFlinger's physical id, passed as `-d`); undefined when the
 * device's answer is not a usable frame in that format.
 */
export async function captureScreen(
  manager: DeviceManager,
  serial: string,
  format: CaptureFormat,
  signal: AbortSignal,
  display?: string,
): Promise<Capture | undefined> {
  const opts = { timeoutMs: 15_000, signal, maxBytes: 128 * 1024 * 1024 };
  const target = display ? ` -d ${display}` : '';
  if (format === 'png') {
    const { data } = await manager.exec(serial, `screencap -p${target}`, opts);
    const { text, image } = splitCaptureText(data, PNG_SIGNATURE);
    const size = pngSize(image);
    return size ? { png: image, ...size, multiDisplay: MULTI_DISPLAY_WARNING.test(text) } : undefined;
  }
  const raw = await receiveRawFrame((sink) => manager.execInto(serial, `screencap${target}`, sink, opts));
  if (!raw) return undefined;
  return { png: raw.png, width: raw.width, height: raw.height, multiDisplay: MULTI_DISPLAY_WARNING.test(raw.text) };
}
