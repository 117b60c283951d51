/**
 * The size and bit rate screenrecord is asked for. The size covers the largest viewer's canvas and
 * no more (a 1080×2400 phone shown 600 px tall needs no 1080×2400 video), keeps the display's
 * aspect exactly when a scale allows it (so a click maps to the same device pixel as on the phone),
 * has even sides that encoders take (multiples of 8 where possible), and at most 1920 px on the
 * long side, what most phones' AVC encoders accept. The bit rate follows the pixels per second,
 * capped by what the link should spend on the picture while it also carries every tool call:
 * 16 Mbit/s on USB or loopback, 4 Mbit/s over adb on Wi-Fi (~5 MB/s in all).
 */

export interface Size {
  width: number;
  height: number;
}

/** `local`: an emulator or the virtual phone on this machine; `network`: adb over TCP (Wi-Fi); else USB. */
export type LinkKind = 'usb' | 'network' | 'local';

export function linkOf(serial: string): LinkKind {
  if (/^emulator-\d+$/.test(serial) || /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+$/.test(serial)) return 'local';
  if (/^[\w.-]+:\d+$/.test(serial) || serial.includes('._adb-tls-connect.')) return 'network';
  return 'usb';
}

export const MAX_ENCODER_SIDE = 1920;
const BITS_PER_PIXEL = 0.07;
const PLANNED_FPS = 60;
const MIN_BIT_RATE = 1_000_000;
const LINK_BIT_RATE: Record<LinkKind, number> = { usb: 16_000_000, local: 16_000_000, network: 4_000_000 };

/** Scales p/q that keep both sides whole; the smallest that still covers `need`. */
function exactScale(display: Size, need: number, maxSide: number): Size | undefined {
  let best: { size: Size; scale: number } | undefined;
  for (let q = 1; q <= 32; q++)
    for (let p = 1; p <= q; p++) {
      const scale = p / q;
      if (scale < need) continue;
      const width = (display.width * p) / q;
      const height = (display.height * p) / q;
      if (!Number.isInteger(width) || !Number.isInteger(height) || width % 8 || height % 8) continue;
      if (Math.max(width, height) > maxSide) continue;
      if (!best || scale < best.scale) best = { size: { width, height }, scale };
    }
  return best?.size;
}

/** The video size for a display shown on canvases of at most `canvas` device pixels. */
export function chooseVideoSize(display: Size, canvas: Size, maxSide = MAX_ENCODER_SIDE): Size {
  const need = Math.min(1, canvas.width / display.width, canvas.height / display.height);
  const exact = exactScale(display, need, maxSide);
  if (exact) return exact;
  // No whole scale: the nearest even sides, capped (the picture is letterboxed by a pixel or two).
  const scale = Math.min(Math.max(need, 0.05), maxSide / Math.max(display.width, display.height));
  const even = (n: number) => Math.max(16, 2 * Math.round(n / 2));
  return { width: even(display.width * scale), height: even(display.height * scale) };
}

export function chooseBitRate(video: Size, link: LinkKind): number {
  const wanted = video.width * video.height * PLANNED_FPS * BITS_PER_PIXEL;
  return Math.round(Math.min(LINK_BIT_RATE[link], Math.max(MIN_BIT_RATE, wanted)));
}
