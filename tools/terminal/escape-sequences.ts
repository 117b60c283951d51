/** Where an escape sequence in terminal output ends, for the parts that read output as bytes. */

export const ESC = 0x1b;
const BEL = 0x07;

/** The string sequences: DCS (P), SOS (X), PM (^), APC (_) run to ST (`ESC \`), as OSC (]) does, or to BEL. */
const STRINGS = new Set([0x50, 0x58, 0x5d, 0x5e, 0x5f]);

/**
 * The length of the escape sequence starting at `at` (an ESC), or 0 when the bytes end inside it:
 * CSI (`ESC [ … final`), the string sequences (OSC, DCS, APC, PM, SOS: up to BEL or `ESC \`), and
 * the others (`ESC`, intermediates, one final byte).
 */
export function escapeLength(bytes: Uint8Array, at: number): number {
  const kind = bytes[at + 1];
  if (kind === undefined) return 0;
  if (kind === 0x5b) {
    for (let i = at + 2; i < bytes.length; i++) if (bytes[i]! >= 0x40 && bytes[i]! <= 0x7e) return i - at + 1;
    return 0;
  }
  if (STRINGS.has(kind)) {
    for (let i = at + 2; i < bytes.length; i++) {
      if (bytes[i] === BEL) return i - at + 1;
      if (bytes[i] === ESC) return bytes[i + 1] === undefined ? 0 : i - at + 2;
    }
    return 0;
  }
  for (let i = at + 1; i < bytes.length; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x2f) return i - at + 1;
  return 0;
}
