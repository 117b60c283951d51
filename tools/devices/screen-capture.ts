/**
 * One screen capture as a PNG, two ways. `png`: the device encodes (`screencap -p`); cheap on the
 * link, but a phone's (and the virtual device's) PNG encoder is slow. `raw`: the device sends its
 * RGBA pixels (`screencap`) and this host encodes them (png.ts: level-1 deflate on the thread
 * pool). Which is faster depends on the phone and the link; the screen stream measures both.
 */
import type { DeviceManager } from './manager/device-manager';
import { encodeRgbaPng, pngSize } from './png';

export type CaptureFormat = 'png' | 'raw';

export interface Capture {
  png: Buffer;
  width: number;
  height: number;
}

/** A raw `screencap` frame: width, height, pixel format, (dataspace since Android 8,) pixels. */
export function parseRawFrame(data: Buffer): { width: number; height: number; pixels: Buffer } | undefined {
  if (data.length < 12) return undefined;
  const width = data.readUInt32LE(0);
  const height = data.readUInt32LE(4);
  const format = data.readUInt32LE(8);
  const bytes = width * height * 4;
  const header = data.length - bytes;
  // Formats 1 (RGBA_8888) and 2 (RGBX_8888) share the layout; others (RGB_565…) are left to `png`.
  if ((format !== 1 && format !== 2) || (header !== 12 && header !== 16) || width === 0 || height === 0)
    return undefined;
  return { width, height, pixels: data.subarray(header) };
}

/** Captures the screen; undefined when the device's answer is not a usable frame in that format. */
export async function captureScreen(
  manager: DeviceManager,
  serial: string,
  format: CaptureFormat,
  signal: AbortSignal,
): Promise<Capture | undefined> {
  const opts = { timeoutMs: 15_000, signal, maxBytes: 128 * 1024 * 1024 };
  if (format === 'png') {
    const { data } = await manager.exec(serial, 'screencap -p', opts);
    const size = pngSize(data);
    return size ? { png: data, ...size } : undefined;
  }
  const { data } = await manager.exec(serial, 'screencap', opts);
  const raw = parseRawFrame(data);
  if (!raw) return undefined;
  return {
    png: await encodeRgbaPng(raw.width, raw.height, raw.pixels, data.readUInt32LE(8) === 2),
    width: raw.width,
    height: raw.height,
  };
}
