/**
 * Rule: the screen model reads a flood without parsing what nobody can see, and its screen is
 * exactly what parsing everything gives: plain lines that scroll out of the screen and its
 * scrollback are left unparsed, and nothing else is (not text that set a state, not text after a
 * bare line feed or a charset shift, not the rest of an escape sequence cut between two reads, not
 * while a scroll region keeps lines outside it).
 * The reference is @xterm/headless itself, given every byte.
 */
import { Terminal } from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { ScreenModel } from '../../tools/terminal/screen-model';
import { UnseenOutput } from '../../tools/terminal/unseen-output';

const COLS = 40;
const ROWS = 8;
const SCROLLBACK = 50;

async function reference(pieces: Buffer[], resizeTo?: { cols: number; rows: number }): Promise<string[]> {
  const t = new Terminal({ cols: COLS, rows: ROWS, scrollback: SCROLLBACK, allowProposedApi: true });
  for (const p of pieces) await new Promise<void>((r) => t.write(new Uint8Array(p), r));
  if (resizeTo) t.resize(resizeTo.cols, resizeTo.rows);
  const b = t.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < t.rows; y++) lines.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? '');
  t.dispose();
  return lines;
}

async function modelled(pieces: Buffer[], resizeTo?: { cols: number; rows: number }): Promise<string[]> {
  const m = new ScreenModel(COLS, ROWS, SCROLLBACK);
  // One batch: what a flood gives the model between two of its parses.
  for (const p of pieces) m.write(p);
  await m.settled();
  if (resizeTo) m.resize(resizeTo.cols, resizeTo.rows);
  const snap = await m.snapshot();
  m.dispose();
  expect(snap.skippedBytes).toBe(0);
  return snap.lines;
}

/** Lines of all lengths, some wider than the screen (they wrap); a few tens of KB in all. */
const lines = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `${from + i} ${'.'.repeat((from + i) % 97 === 0 ? 70 : (from + i) % 9)}`).join(
    '\r\n',
  );

describe('the screen model under a flood', () => {
  it(
    'ends on the screen full parsing gives, after colours and a title, with or without a scroll ' +
      'region, and after growing',
    async () => {
      const stream = [
        Buffer.from('\x1b]0;build\x07\x1b[1;32muser@box\x1b[0m:~$ make\r\n\x1b[33m'),
        Buffer.from(`${lines(3000)}\r\n`),
        Buffer.from(`${lines(5, 3000)}\r\nlast, no line end`),
      ];
      expect(await modelled(stream)).toEqual(await reference(stream));
      expect(await modelled(stream, { cols: 60, rows: 20 })).toEqual(await reference(stream, { cols: 60, rows: 20 }));
      const region = [Buffer.from('top line\x1b[2;6r'), ...stream.slice(1)];
      expect(await modelled(region)).toEqual(await reference(region));
      // The first line, drawn above the region, stays: skipping it would have lost it.
      expect((await reference(region))[0]).toMatch(/^0 \.+$/);
    },
  );

  it(
    'parses every line when one ends in a bare line feed, ' + 'and what a charset shift or a cut sequence touches',
    async () => {
      // Without CR each line starts where the last one ended: what the skipped lines did shows.
      const bare = [Buffer.from(`${lines(20)}\r\n${'abc\n'.repeat(301)}`)];
      expect(await modelled(bare)).toEqual(await reference(bare));
      const shifted = [Buffer.from(`\x1b)0${lines(400)}\x0e${lines(300, 400)}\r\n`)];
      expect(await modelled(shifted)).toEqual(await reference(shifted));
      const cut = [Buffer.from(`ok\x1b[3`), Buffer.from(`1;4${'m'}${lines(400)}\r\n`)];
      expect(await modelled(cut)).toEqual(await reference(cut));
    },
  );
});

describe('the unseen part of a piece of output', () => {
  // 10 lines kept: 4 of scrollback and twice the 3 rows.
  const size = () => ({ rows: 3, scrollback: 4 });
  const crlf = (n: number) => Buffer.from('x\r\n'.repeat(n));

  it('is the plain text before the last lines the screen and scrollback hold, after the last escape sequence', () => {
    const u = new UnseenOutput(size);
    expect(u.unseen(crlf(11))).toEqual({ from: 0, to: 3 });
    expect(u.unseen(crlf(10))).toBeUndefined();
    const coloured = Buffer.concat([Buffer.from('\x1b[31m'), crlf(20)]);
    expect(u.unseen(coloured)).toEqual({ from: 5, to: 5 + 30 });
  });

  it('is nothing after a bare line feed among the kept lines, a state-changing control, or an open sequence', () => {
    const u = new UnseenOutput(size);
    expect(u.unseen(Buffer.concat([crlf(5), Buffer.from('x\n'), crlf(10)]))).toBeUndefined();
    expect(u.unseen(Buffer.concat([crlf(20), Buffer.from('\x0f'), crlf(12)]))).toBeUndefined();
    expect(u.unseen(Buffer.concat([crlf(20), Buffer.from('\x1b[1')]))).toBeUndefined();
    u.parsed(Buffer.from('\x1b]0;a title cut'));
    expect(u.unseen(crlf(30))).toBeUndefined();
    expect(u.unseen(Buffer.concat([Buffer.from(' here\x07'), crlf(30)]))).toEqual({ from: 6, to: 6 + 60 });
    u.parsed(Buffer.from(' here\x07'));
    expect(u.unseen(crlf(30))).toEqual({ from: 0, to: 60 });
    expect(u.unseen(Buffer.concat([Buffer.from('\x1b[1;2r'), crlf(30)]))).toBeUndefined();
    expect(u.unseen(crlf(30))).toBeUndefined();
    expect(u.unseen(Buffer.concat([Buffer.from('\x1b[r'), crlf(30)]))).toEqual({ from: 3, to: 63 });
  });
});
