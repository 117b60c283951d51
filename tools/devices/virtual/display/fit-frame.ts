/**
 * A frame scaled into another size with its aspect kept (letterboxed in black when the aspects
 * differ), as screenrecord's virtual display gets the phone's layers: composed at the video's size,
 * not at the display's and then shrunk. Each output pixel averages the input pixels it covers.
 */
import type { Frame } from '../screen';

export interface Placement {
  /** Output pixels per display pixel. */
  scale: number;
  /** Where the display's picture starts in the output. */
  left: number;
  top: number;
}

export function placement(
  display: { width: number; height: number },
  out: { width: number; height: number },
): Placement {
  const scale = Math.min(out.width / display.width, out.height / display.height);
  return {
    scale,
    left: Math.round((out.width - display.width * scale) / 2),
    top: Math.round((out.height - display.height * scale) / 2),
  };
}

export function fitFrame(src: Frame, out: { width: number; height: number }): Frame {
  const pixels = Buffer.alloc(out.width * out.height * 4);
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  if (src.width === out.width && src.height === out.height) {
    src.pixels.copy(pixels);
    return { width: out.width, height: out.height, pixels };
  }
  const p = placement(src, out);
  const w = Math.round(src.width * p.scale);
  const h = Math.round(src.height * p.scale);
  const s = src.pixels;
  // Source column bounds of each output column, computed once.
  const xs = new Int32Array(w + 1);
  for (let x = 0; x <= w; x++) xs[x] = Math.min(src.width, Math.round((x * src.width) / w));
  for (let y = 0; y < h; y++) {
    const y0 = Math.round((y * src.height) / h);
    const y1 = Math.max(y0 + 1, Math.min(src.height, Math.round(((y + 1) * src.height) / h)));
    let o = ((p.top + y) * out.width + p.left) * 4;
    for (let x = 0; x < w; x++) {
      const x0 = xs[x] ?? 0;
      const x1 = Math.max(x0 + 1, xs[x + 1] ?? 0);
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        let i = (sy * src.width + x0) * 4;
        for (let sx = x0; sx < x1; sx++, i += 4) {
          r += s[i] ?? 0;
          g += s[i + 1] ?? 0;
          b += s[i + 2] ?? 0;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      pixels[o] = r / n;
      pixels[o + 1] = g / n;
      pixels[o + 2] = b / n;
      o += 4;
    }
  }
  return { width: out.width, height: out.height, pixels };
}
