/**
 * Terminal bytes as text a model can read: escape sequences (colours, cursor moves, titles) removed,
 * CR LF as one line end, and a carriage return that rewrites its line (progress bars, spinners)
 * leaving only what a person would finally see on that line.
 */

// CSI … final byte, OSC … BEL or ST, DCS/PM/APC … ST, and the two-byte escapes.
const ESCAPES = new RegExp(
  [
    '\\x1b\\[[0-?]*[ -/]*[@-~]',
    '\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)?',
    '\\x1b[PX^_][^\\x1b]*(?:\\x1b\\\\)?',
    '\\x1b[ -/]*[0-~]',
    '\\x9b[0-?]*[ -/]*[@-~]',
  ].join('|'),
  'g',
);

export function terminalText(raw: string): string {
  const plain = raw.replace(ESCAPES, '');
  return plain
    .split('\n')
    .map((line) => {
      // What the line shows at the end: a carriage return goes back to column 0 and later text
      // overwrites, a backspace steps back one column, as on a screen.
      const cells: string[] = [];
      let col = 0;
      for (const ch of line) {
        if (ch === '\r') col = 0;
        else if (ch === '\b') col = Math.max(0, col - 1);
        else if (ch >= ' ' || ch === '\t') cells[col++] = ch;
      }
      return cells.join('');
    })
    .join('\n');
}

/**
 * The length of `bytes` without a UTF-8 sequence cut at its end, so text read in pieces never shows
 * half a character; the cut bytes come with the next piece.
 */
export function completeUtf8Length(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}
