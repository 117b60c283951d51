/** The soft keyboard: drawn at the bottom while a field is focused; tapping a key types it. */
import { rect, type Rect } from './ui';

export interface Key {
  label: string;
  /** The text typed, or a key name for special keys. */
  value: string | 'DEL' | 'ENTER';
  bounds: Rect;
}

export const KEYBOARD_HEIGHT = 440;

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

export function keyboardArea(width: number, height: number): Rect {
  return rect(0, height - KEYBOARD_HEIGHT, width, height);
}

export function keyboardKeys(width: number, height: number): Key[] {
  const area = keyboardArea(width, height);
  const rowH = Math.floor((KEYBOARD_HEIGHT - 40) / 4);
  const keyW = Math.floor(width / 10);
  const keys: Key[] = [];
  ROWS.forEach((row, r) => {
    const indent = Math.floor(((10 - row.length) * keyW) / 2);
    const top = area.top + 20 + r * rowH;
    [...row].forEach((ch, i) => {
      const left = indent + i * keyW;
      keys.push({ label: ch, value: ch, bounds: rect(left + 4, top + 4, left + keyW - 4, top + rowH - 4) });
    });
  });
  const lastTop = area.top + 20 + 3 * rowH;
  const third = area.top + 20 + 2 * rowH;
  keys.push({
    label: 'del',
    value: 'DEL',
    bounds: rect(width - keyW * 1.5 + 4, third + 4, width - 4, third + rowH - 4),
  });
  keys.push({ label: ' ', value: ' ', bounds: rect(keyW * 2 + 4, lastTop + 4, keyW * 8 - 4, lastTop + rowH - 4) });
  keys.push({ label: 'go', value: 'ENTER', bounds: rect(keyW * 8 + 4, lastTop + 4, width - 4, lastTop + rowH - 4) });
  return keys;
}
