/**
 * Draws the latency probe (shared/screen-probe.ts) into a composed frame: the phone's frame counter
 * and its clock as black and white cells in a black box at the top centre of the display, where a
 * viewer reads them back from the picture it shows. A frame composed at another size (a recorder's)
 * gets the probe where the display's would be in it.
 */
import { PROBE_COLUMNS, probeCells, probeGeometry } from '../../../../shared/screen-probe';
import type { Frame } from '../screen';
import type { Placement } from './fit-frame';

function fillRect(frame: Frame, left: number, top: number, right: number, bottom: number, value: number): void {
  const x0 = Math.max(0, left);
  const x1 = Math.min(frame.width, right);
  const y0 = Math.max(0, top);
  const y1 = Math.min(frame.height, bottom);
  for (let y = y0; y < y1; y++) {
    const start = (y * frame.width + x0) * 4;
    const end = (y * frame.width + x1) * 4;
    frame.pixels.fill(value, start, end);
    for (let i = start + 3; i < end; i += 4) frame.pixels[i] = 255;
  }
}

export function stampProbe(
  frame: Frame,
  counter: number,
  timeMs: number,
  displayWidth = frame.width,
  at: Placement = { scale: 1, left: 0, top: 0 },
): void {
  const g = probeGeometry(displayWidth);
  const x = (v: number) => Math.round(at.left + v * at.scale);
  const y = (v: number) => Math.round(at.top + v * at.scale);
  fillRect(
    frame,
    x(g.left - g.margin),
    y(g.top - g.margin),
    x(g.left + g.width + g.margin),
    y(g.top + g.height + g.margin),
    0,
  );
  probeCells(counter, timeMs).forEach((white, i) => {
    if (!white) return;
    const cx = g.left + (i % PROBE_COLUMNS) * g.cell;
    const cy = g.top + Math.floor(i / PROBE_COLUMNS) * g.cell;
    fillRect(frame, x(cx), y(cy), x(cx + g.cell), y(cy + g.cell), 255);
  });
}
