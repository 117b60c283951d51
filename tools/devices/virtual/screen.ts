/**
 * Renders a display of the phone: status bar, the foreground window's nodes (buttons filled, fields
 * boxed, the focused field highlighted, checkboxes ticked, text in a block font), the keyboard
 * while it is shown and the navigation bar. A sleeping phone, a display that is off (the folded
 * half of a foldable) and a FLAG_SECURE window's content render black, as screencap gets them.
 * `screencap -p` encodes it as PNG.
 */
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import type { VirtualPhone } from './phone';
import { keyboardArea, keyboardKeys } from './phone/keyboard';
import type { Rect, UiNode } from './phone/ui';
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from './screen-font';

type Color = readonly [number, number, number];

const WHITE: Color = [255, 255, 255];
const INK: Color = [33, 33, 33];
const MUTED: Color = [117, 117, 117];
const PRIMARY: Color = [63, 81, 181];
const BUTTON: Color = [25, 118, 210];
const FIELD: Color = [245, 245, 245];
const FOCUS: Color = [255, 143, 0];
const LAUNCHER_BG: Color = [18, 52, 86];
const STATUS_BG: Color = [0, 0, 0];
const KEYBOARD_BG: Color = [214, 217, 222];

export interface Frame {
  width: number;
  height: number;
  /** RGBA, row by row. */
  pixels: Buffer;
}

class Canvas {
  readonly pixels: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = Buffer.alloc(width * height * 4, 255);
  }

  fill(r: Rect, c: Color): void {
    const x0 = Math.max(0, Math.floor(r.left));
    const x1 = Math.min(this.width, Math.ceil(r.right));
    const y0 = Math.max(0, Math.floor(r.top));
    const y1 = Math.min(this.height, Math.ceil(r.bottom));
    if (x0 >= x1) return;
    const row = Buffer.alloc((x1 - x0) * 4);
    for (let i = 0; i < row.length; i += 4) {
      row[i] = c[0];
      row[i + 1] = c[1];
      row[i + 2] = c[2];
      row[i + 3] = 255;
    }
    for (let y = y0; y < y1; y++) row.copy(this.pixels, (y * this.width + x0) * 4);
  }

  stroke(r: Rect, c: Color, w: number): void {
    this.fill({ ...r, bottom: r.top + w }, c);
    this.fill({ ...r, top: r.bottom - w }, c);
    this.fill({ ...r, right: r.left + w }, c);
    this.fill({ ...r, left: r.right - w }, c);
  }

  /** Draws text in the block font, vertically centred in `r`, left-aligned or centred. */
  text(r: Rect, text: string, c: Color, scale: number, centred = false): void {
    const advance = (GLYPH_WIDTH + 1) * scale;
    const maxChars = Math.max(0, Math.floor((r.right - r.left - 8) / advance));
    const shown = [...text].slice(0, maxChars);
    const width = shown.length * advance;
    let x = centred ? r.left + Math.floor((r.right - r.left - width) / 2) : r.left + 8;
    const y = r.top + Math.floor((r.bottom - r.top - GLYPH_HEIGHT * scale) / 2);
    for (const ch of shown) {
      const bits = glyph(ch);
      for (let i = 0; i < bits.length; i++) {
        if (bits[i] !== '1') continue;
        const gx = x + (i % GLYPH_WIDTH) * scale;
        const gy = y + Math.floor(i / GLYPH_WIDTH) * scale;
        this.fill({ left: gx, top: gy, right: gx + scale, bottom: gy + scale }, c);
      }
      x += advance;
    }
  }
}

function iconColor(label: string): Color {
  let h = 0;
  for (const ch of label) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return [64 + (h % 160), 64 + ((h >> 8) % 160), 64 + ((h >> 16) % 160)];
}

function drawNode(canvas: Canvas, node: UiNode, ink: Color): void {
  const b = node.bounds;
  let childInk = ink;
  const id = node.resourceId ?? '';
  if (id.endsWith(':id/toolbar')) {
    canvas.fill(b, PRIMARY);
    childInk = WHITE;
  } else if (node.className === 'android.widget.Button') {
    canvas.fill(b, node.enabled === false ? MUTED : BUTTON);
    canvas.text(b, node.text ?? '', WHITE, 5, true);
  } else if (node.editable) {
    canvas.fill(b, FIELD);
    canvas.stroke(b, node.focused ? FOCUS : MUTED, node.focused ? 6 : 2);
    canvas.text(b, node.text ?? '', INK, 5);
    if (node.focused)
      canvas.fill({ left: b.right - 24, top: b.top + 16, right: b.right - 18, bottom: b.bottom - 16 }, FOCUS);
  } else if (node.checkable) {
    const box = { left: b.right - 88, top: b.top + 20, right: b.right - 32, bottom: b.bottom - 20 };
    canvas.stroke(box, INK, 4);
    if (node.checked)
      canvas.fill({ left: box.left + 10, top: box.top + 10, right: box.right - 10, bottom: box.bottom - 10 }, BUTTON);
    canvas.text({ ...b, right: box.left }, node.text ?? '', ink, 5);
  } else if (node.className === 'android.widget.TextView' && node.action?.startsWith('launch:')) {
    const size = Math.min(b.right - b.left, b.bottom - b.top) - 60;
    const left = b.left + Math.floor((b.right - b.left - size) / 2);
    canvas.fill({ left, top: b.top + 8, right: left + size, bottom: b.top + 8 + size }, iconColor(node.text ?? ''));
    canvas.text({ ...b, top: b.bottom - 44 }, node.text ?? '', WHITE, 4, true);
  } else if (node.text) {
    canvas.text(b, node.text, ink, id.endsWith(':id/toolbar_title') ? 6 : 5);
  }
  if (id.endsWith(':id/product_row')) canvas.fill({ ...b, top: b.bottom - 2 }, [224, 224, 224]);
  for (const child of node.children) drawNode(canvas, child, childInk);
}

/** Renders display `index` of the phone (default: the one that is on). */
export function renderFrame(phone: VirtualPhone, index = phone.hardware.activeDisplay): Frame {
  const display = phone.profile.displays[index] ?? phone.display;
  const { width, height } = display;
  const canvas = new Canvas(width, height);
  const black: Color = [0, 0, 0];
  if (!phone.awake || index !== phone.hardware.activeDisplay) {
    canvas.fill({ left: 0, top: 0, right: width, bottom: height }, black);
    return { width, height, pixels: canvas.pixels };
  }
  const { contentHeight, scale } = phone.layout;
  const root = phone.hierarchy();
  if (phone.secureWindowShown()) canvas.fill(root.bounds, black);
  else {
    if (root.packageName === 'com.android.launcher3') canvas.fill(root.bounds, LAUNCHER_BG);
    if (root.packageName === 'com.android.systemui') canvas.fill(root.bounds, LAUNCHER_BG);
    drawNode(canvas, root, INK);
  }
  if (contentHeight < height) canvas.fill({ left: 0, top: contentHeight, right: width, bottom: height }, black);
  const statusBar = Math.round(48 * scale);
  canvas.fill({ left: 0, top: 0, right: width, bottom: statusBar }, STATUS_BG);
  const now = new Date(phone.now());
  const clock = `${String(now.getUTCHours()).padStart(2, '0')}:${String(now.getUTCMinutes()).padStart(2, '0')}`;
  canvas.text({ left: 8, top: 0, right: 200, bottom: statusBar }, clock, WHITE, 4);
  canvas.fill({ left: width - 60, top: 14, right: width - 20, bottom: statusBar - 14 }, WHITE); // battery
  if (phone.keyboardShown && !phone.conditions.locked) {
    canvas.fill(keyboardArea(width, contentHeight), KEYBOARD_BG);
    for (const key of keyboardKeys(width, contentHeight)) {
      canvas.fill(key.bounds, WHITE);
      canvas.text(key.bounds, key.label, INK, 4, true);
    }
  }
  return { width, height, pixels: canvas.pixels };
}

/**
 * The latest encodings, by their frames' pixels. Deflating a 1080x2400 frame takes this process
 * 0.3 s or more, which is the simulation's cost and not a phone's (timeScale stands for that): a
 * screen that did not change since a recent capture is not encoded again.
 */
const recentPngs = new Map<string, Buffer>();
const RECENT_PNGS = 8;

export function encodePng(frame: Frame): Buffer {
  const key = `${frame.width}x${frame.height}:${createHash('sha1').update(frame.pixels).digest('base64')}`;
  const known = recentPngs.get(key);
  if (known) {
    recentPngs.delete(key);
    recentPngs.set(key, known);
    return Buffer.from(known);
  }
  const png = new PNG({ width: frame.width, height: frame.height });
  frame.pixels.copy(png.data);
  const encoded = PNG.sync.write(png, { deflateLevel: 3 });
  recentPngs.set(key, encoded);
  if (recentPngs.size > RECENT_PNGS) recentPngs.delete(recentPngs.keys().next().value!);
  return Buffer.from(encoded);
}

/** What `screencap` without -p writes: width, height, format (1 = RGBA_8888), dataspace, pixels. */
export function encodeRaw(frame: Frame): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32LE(frame.width, 0);
  header.writeUInt32LE(frame.height, 4);
  header.writeUInt32LE(1, 8);
  header.writeUInt32LE(0, 12);
  return Buffer.concat([header, frame.pixels]);
}
