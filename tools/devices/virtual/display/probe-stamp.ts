/**
 * Draws the latency probe (shared/screen-probe.ts) into a rendered frame: the phone's frame counter
 * and its clock as black and white cells in a black box at the top centre, where a viewer reads
 * them back from the picture it shows.
 */
import { probeCells, probeGeometry, PROBE_COLUMNS } from '../../../../shared/screen-probe';
import type { Frame } from '../screen';

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

export function stampProbe(frame: Frame, counter: number, timeMs: number): void {
  const g = probeGeometry(frame.width);
  fillRect(frame, g.left - g.margin, g.top - g.margin, g.left + g.width + g.margin, g.top + g.height + g.margin, 0);
  probeCells(counter, timeMs).forEach((white, i) => {
    if (!white) return;
    const x = g.left + (i % PROBE_COLUMNS) * g.cell;
    const y = g.top + Math.floor(i / PROBE_COLUMNS) * g.cell;
    fillRect(frame, x, y, x + g.cell, y + g.cell, 255);
  });
}
