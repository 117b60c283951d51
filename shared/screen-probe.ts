/**
 * The latency probe the virtual phone draws in its status bar and a viewer reads back from the
 * picture it shows: the phone's frame counter and its clock, as two rows of black and white cells
 * large enough to survive scaling and H.264 compression. Each row starts with a white cell and ends
 * with a black one; the 40 data cells carry the counter (16 bits), the clock in ms (20 bits) and a
 * check nibble (the XOR of the other nine). Counter and clock wrap; readers unwrap them.
 */

export const PROBE_COLUMNS = 22;
export const PROBE_ROWS = 2;
const DATA_PER_ROW = PROBE_COLUMNS - 2;
const COUNTER_BITS = 16;
const TIME_BITS = 20;
export const COUNTER_MODULO = 2 ** COUNTER_BITS;
export const TIME_MODULO = 2 ** TIME_BITS;

export interface ProbeGeometry {
  /** Side of one cell, in screen pixels. */
  cell: number;
  left: number;
  top: number;
  width: number;
  height: number;
  /** The black box drawn around the cells (margin on every side). */
  margin: number;
}

/** Where the probe sits on a screen `width` pixels wide: centred at the top (where a phone has its notch). */
export function probeGeometry(width: number): ProbeGeometry {
  const cell = Math.max(4, Math.round(width / 45));
  const margin = Math.max(2, Math.round(cell / 4));
  const probeWidth = PROBE_COLUMNS * cell;
  return {
    cell,
    left: Math.round((width - probeWidth) / 2),
    top: margin,
    width: probeWidth,
    height: PROBE_ROWS * cell,
    margin,
  };
}

export interface Size {
  width: number;
  height: number;
}

/**
 * The probe as it lands in a picture of `picture` size that shows a display of `display` size,
 * scaled to fit and letterboxed when the aspects differ: its geometry on the display, the scale and
 * offsets, and where each cell's centre falls in the picture.
 */
export function probeInPicture(picture: Size, display: Size) {
  const scale = Math.min(picture.width / display.width, picture.height / display.height);
  const offsetX = (picture.width - display.width * scale) / 2;
  const offsetY = (picture.height - display.height * scale) / 2;
  const geometry = probeGeometry(display.width);
  const cellCentre = (col: number, row: number) => ({
    x: offsetX + (geometry.left + (col + 0.5) * geometry.cell) * scale,
    y: offsetY + (geometry.top + (row + 0.5) * geometry.cell) * scale,
  });
  return { scale, offsetX, offsetY, geometry, cellCentre };
}

export interface ProbeReading {
  /** The phone's frame counter, modulo 2^16. */
  counter: number;
  /** The phone's clock when it drew the frame, in ms modulo 2^20. */
  time: number;
}

function checkNibble(counter: number, time: number): number {
  let x = 0;
  let value = counter * TIME_MODULO + time; // 36 bits: safe in a double
  for (let i = 0; i < 9; i++) {
    x ^= value % 16;
    value = Math.floor(value / 16);
  }
  return x;
}

/** The cells, row by row (true = white), for a counter and a clock reading. */
export function probeCells(counter: number, timeMs: number): boolean[] {
  const c = ((counter % COUNTER_MODULO) + COUNTER_MODULO) % COUNTER_MODULO;
  const t = ((Math.floor(timeMs) % TIME_MODULO) + TIME_MODULO) % TIME_MODULO;
  const bits: boolean[] = [];
  const push = (value: number, count: number) => {
    for (let i = count - 1; i >= 0; i--) bits.push(Math.floor(value / 2 ** i) % 2 === 1);
  };
  push(c, COUNTER_BITS);
  push(t, TIME_BITS);
  push(checkNibble(c, t), 4);
  const cells: boolean[] = [];
  for (let row = 0; row < PROBE_ROWS; row++)
    cells.push(true, ...bits.slice(row * DATA_PER_ROW, (row + 1) * DATA_PER_ROW), false);
  return cells;
}

/**
 * Reads the probe through `luma(column, row)`, the brightness (0-255) at the centre of a cell.
 * Undefined when the cells are not a probe (no phone draws one, or the picture is damaged).
 */
export function readProbe(luma: (column: number, row: number) => number): ProbeReading | undefined {
  const bits: boolean[] = [];
  for (let row = 0; row < PROBE_ROWS; row++) {
    if (luma(0, row) < 128 || luma(PROBE_COLUMNS - 1, row) >= 128) return undefined;
    for (let col = 1; col <= DATA_PER_ROW; col++) bits.push(luma(col, row) >= 128);
  }
  const take = (from: number, count: number) => bits.slice(from, from + count).reduce((v, b) => v * 2 + (b ? 1 : 0), 0);
  const counter = take(0, COUNTER_BITS);
  const time = take(COUNTER_BITS, TIME_BITS);
  if (take(COUNTER_BITS + TIME_BITS, 4) !== checkNibble(counter, time)) return undefined;
  return { counter, time };
}

/** How long ago (ms) the phone drew a frame stamped `time`, as of `nowMs` on the same clock. */
export function probeAge(time: number, nowMs: number): number {
  return (((Math.floor(nowMs) - time) % TIME_MODULO) + TIME_MODULO) % TIME_MODULO;
}

/** The full counter value a 16-bit reading stands for, given the last full value seen (the nearest one). */
export function unwrapCounter(reading: number, previous: number | undefined): number {
  if (previous === undefined) return reading;
  const base = previous - (((previous % COUNTER_MODULO) + COUNTER_MODULO) % COUNTER_MODULO);
  let best = base + reading;
  for (const candidate of [best - COUNTER_MODULO, best + COUNTER_MODULO])
    if (Math.abs(candidate - previous) < Math.abs(best - previous)) best = candidate;
  return best;
}
