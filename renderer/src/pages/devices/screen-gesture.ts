/**
 * What a pointer or a key on the live screen means on the device: the canvas shows the frame
 * scaled to fit (object-fit: contain, so there may be bars on two sides); a position inside the
 * picture maps to device pixels, a position on a bar maps to nothing. A press that moves less than
 * DRAG_THRESHOLD_PX is a tap, further is a swipe lasting as long as the drag did.
 */
export interface Point {
  x: number;
  y: number;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export type Gesture =
  | { kind: 'tap'; x: number; y: number }
  | { kind: 'swipe'; x1: number; y1: number; x2: number; y2: number; durationMs: number };

export const DRAG_THRESHOLD_PX = 8;
const MIN_SWIPE_MS = 1;
const MAX_SWIPE_MS = 10_000;
/** Keyboard swipes: a third of the screen, at a finger's pace. */
const KEY_SWIPE_MS = 300;

/** Where a picture of `size` is drawn inside `box` with object-fit: contain. */
export function containedRect(box: Box, size: Size): Box {
  if (size.width <= 0 || size.height <= 0 || box.width <= 0 || box.height <= 0) return { ...box, width: 0, height: 0 };
  const scale = Math.min(box.width / size.width, box.height / size.height);
  const width = size.width * scale;
  const height = size.height * scale;
  return { left: box.left + (box.width - width) / 2, top: box.top + (box.height - height) / 2, width, height };
}

/** The device pixel under a client position, or undefined on the bars around the picture. */
export function toDevicePoint(client: Point, box: Box, device: Size): Point | undefined {
  const picture = containedRect(box, device);
  if (picture.width === 0) return undefined;
  const rx = (client.x - picture.left) / picture.width;
  const ry = (client.y - picture.top) / picture.height;
  if (rx < 0 || rx > 1 || ry < 0 || ry > 1) return undefined;
  return {
    x: Math.min(device.width - 1, Math.floor(rx * device.width)),
    y: Math.min(device.height - 1, Math.floor(ry * device.height)),
  };
}

/** Like toDevicePoint, but a drag that ends on a bar or outside is pulled back to the edge. */
function toDevicePointClamped(client: Point, box: Box, device: Size): Point {
  const picture = containedRect(box, device);
  const rx = Math.min(1, Math.max(0, (client.x - picture.left) / (picture.width || 1)));
  const ry = Math.min(1, Math.max(0, (client.y - picture.top) / (picture.height || 1)));
  return {
    x: Math.min(device.width - 1, Math.floor(rx * device.width)),
    y: Math.min(device.height - 1, Math.floor(ry * device.height)),
  };
}

export interface PointerSample {
  client: Point;
  /** Event timestamp in ms (any clock, the same for both samples). */
  at: number;
}

/** A press and its release as a tap or a swipe; undefined when the press began off the picture. */
export function classifyGesture(down: PointerSample, up: PointerSample, box: Box, device: Size): Gesture | undefined {
  const start = toDevicePoint(down.client, box, device);
  if (!start) return undefined;
  const moved = Math.hypot(up.client.x - down.client.x, up.client.y - down.client.y);
  if (moved < DRAG_THRESHOLD_PX) return { kind: 'tap', x: start.x, y: start.y };
  const end = toDevicePointClamped(up.client, box, device);
  const durationMs = Math.min(MAX_SWIPE_MS, Math.max(MIN_SWIPE_MS, Math.round(up.at - down.at)));
  return { kind: 'swipe', x1: start.x, y1: start.y, x2: end.x, y2: end.y, durationMs };
}

/** Enter or Space taps the centre; arrow keys drag a third of the screen in their direction. */
export function keyGesture(key: string, device: Size): Gesture | undefined {
  const cx = Math.floor(device.width / 2);
  const cy = Math.floor(device.height / 2);
  if (key === 'Enter' || key === ' ') return { kind: 'tap', x: cx, y: cy };
  const dx = Math.floor(device.width / 6);
  const dy = Math.floor(device.height / 6);
  const swipe = (x1: number, y1: number, x2: number, y2: number): Gesture => ({
    kind: 'swipe',
    x1,
    y1,
    x2,
    y2,
    durationMs: KEY_SWIPE_MS,
  });
  switch (key) {
    case 'ArrowUp':
      return swipe(cx, cy + dy, cx, cy - dy);
    case 'ArrowDown':
      return swipe(cx, cy - dy, cx, cy + dy);
    case 'ArrowLeft':
      return swipe(cx + dx, cy, cx - dx, cy);
    case 'ArrowRight':
      return swipe(cx - dx, cy, cx + dx, cy);
    default:
      return undefined;
  }
}

export function describeGesture(g: Gesture): string {
  return g.kind === 'tap'
    ? `Tap at (${g.x}, ${g.y})`
    : `Swipe (${g.x1}, ${g.y1}) → (${g.x2}, ${g.y2}) in ${g.durationMs} ms`;
}
