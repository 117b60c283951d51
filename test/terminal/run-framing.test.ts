/**
 * Rule: what reads a terminal (the log behind observe and wait, the screen behind snapshot, the
 * Terminals page) sees an agent's terminal.run as the command it ran and its output, never the
 * framing the run typed around it nor its markers; the run gets the command's output and exit
 * status however the output is cut into pieces. Bytes before the shell's display of the line (a
 * prompt drawn late) pass unchanged, the editor's colours and modes stay in effect, output that
 * merely looks like a marker passes, and a run that ends without its markers passes on what it held
 * as it came. These are the streams bash, busybox ash and a typed-ahead line really produce (the PTY
 * tests show them end to end: host-pty, sandbox-terminal, device-pty).
 */
import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../tools/terminal/output-tail';
import { RunFraming } from '../../tools/terminal/run-framing';
import { type MarkerStyle, buildRunLine } from '../../tools/terminal/run-markers';
import { findTyped, stateSequences } from '../../tools/terminal/typed-echo';

const NONCE = 'c0ffee123456';

function framed(command: string, style: MarkerStyle) {
  const run = buildRunLine(command, NONCE, style);
  const got = { began: false, output: [] as Buffer[], exit: undefined as number | undefined };
  const framing = new RunFraming(run, command, {
    onBegin: () => {
      got.began = true;
    },
    onOutput: (b) => got.output.push(Buffer.from(b)),
    onEnd: (code) => {
      got.exit = code;
    },
  });
  return { run, framing, got, output: () => Buffer.concat(got.output).toString('latin1') };
}

/** Feeds `stream` in pieces of `size` bytes; returns what the framing passed on. */
function feed(framing: RunFraming, stream: string, size: number): string {
  const out: Buffer[] = [];
  for (let i = 0; i < stream.length; i += size)
    out.push(framing.push(Buffer.from(stream.slice(i, i + size), 'latin1')));
  out.push(framing.flushPartial());
  return Buffer.concat(out).toString('latin1');
}

const SIZES = [1, 2, 3, 7, 64, 100_000];

describe('a run’s framing', () => {
  it('shows bash’s display of the typed line as the command alone, keeps its modes, and removes the markers', () => {
    for (const size of SIZES) {
      const { run, framing, got, output } = framed('echo hi', 'osc');
      const stream = `\x07${run.line}\r\n\x1b[?2004l\r${run.start}hi\r\n${run.end}7\x07\x1b[?2004h$ `;
      expect([size, feed(framing, stream, size)]).toEqual([size, '\x07echo hi\r\n\x1b[?2004lhi\r\n\x1b[?2004h$ ']);
      expect([size, got.began, output(), got.exit, framing.finished]).toEqual([size, true, 'hi\r\n', 7, true]);
    }
  });

  it('sees through readline’s highlighted paste and redraw, and busybox’s broken long lines', () => {
    const { run, framing } = framed('echo hello', 'osc');
    const half = run.line.length >> 1;
    const redraw =
      `\x1b[7m${run.line.slice(0, half)}\x1b[27m\x1b[7m${run.line.slice(half)}\x1b[27m` + `\x1b[A\b\b\b${run.line}`;
    expect(feed(framing, `${redraw}\r\n${run.start}hello\r\n${run.end}0\x07`, 5)).toBe(
      'echo hello\r\n\x1b[7m\x1b[27m\x1b[7m\x1b[27mhello\r\n',
    );
    const busybox = framed('ls /', 'osc');
    const wrapped = `${busybox.run.line.slice(0, 20)}\r\r\n${busybox.run.line.slice(20)}`;
    expect(
      feed(busybox.framing, `/ # \x1b[6n${wrapped}\r\n${busybox.run.start}bin\r\n${busybox.run.end}0\x07/ # `, 9),
    ).toBe('/ # \x1b[6nls /\r\nbin\r\n/ # ');
  });

  it('passes a prompt drawn after the line was typed, and passes it at once, before the start marker', () => {
    const { run, framing } = framed('pwd', 'osc');
    expect(framing.push(Buffer.from('\x1b[?2004huser@box:~$ ', 'latin1')).toString('latin1')).toBe(
      '\x1b[?2004huser@box:~$ ',
    );
    expect(framing.push(Buffer.from(`p${run.line.slice(1, 12)}`, 'latin1')).toString('latin1')).toBe('');
    expect(feed(framing, `${run.line.slice(12)}\r\n${run.start}/home\r\n${run.end}0\x07`, 4)).toBe('pwd\r\n/home\r\n');
  });

  it(
    'keeps the prompt of a line typed ahead, and shows ' + 'neither the line discipline’s echo of it nor the editor’s',
    () => {
      for (const size of SIZES) {
        const bash = framed('echo hi', 'osc');
        const ahead =
          `${bash.run.line}\r\n\x1b[?2004h$ ` +
          `\x07${bash.run.line}\r\n\x1b[?2004l\r${bash.run.start}hi\r\n${bash.run.end}0\x07`;
        expect([size, feed(bash.framing, ahead, size)]).toEqual([
          size,
          '\x1b[?2004h$ \x07echo hi\r\n\x1b[?2004lhi\r\n',
        ]);
        const dash = framed('echo hi', 'osc');
        const plain = `${dash.run.line}\r\n$ ${dash.run.start}hi\r\n${dash.run.end}0\x07`;
        expect([size, feed(dash.framing, plain, size)]).toEqual([size, '$ echo hi\r\nhi\r\n']);
      }
    },
  );

  it(
    'removes the text markers with their line ends on a ' +
      'phone’s shell, and a marker after output without a line end',
    () => {
      for (const size of SIZES) {
        const { run, framing, output, got } = framed('printf abc', 'text');
        const stream = `:/ $ ${run.line}\r\n${run.start}\r\nabc${run.end}0\r\n:/ $ `;
        expect([size, feed(framing, stream, size)]).toEqual([size, ':/ $ printf abc\r\nabc:/ $ ']);
        expect([size, output(), got.exit]).toEqual([size, 'abc', 0]);
      }
    },
  );

  it('passes output that only begins like a marker, once nothing completes it', () => {
    const { run, framing, output, got } = framed('cat notes', 'text');
    feed(framing, `${run.line}\r\n${run.start}\r\n`, 1000);
    expect(framing.push(Buffer.from('def __init__', 'latin1')).toString('latin1')).toBe('def __init');
    expect(framing.holding).toBe(true);
    expect(framing.flushPartial().toString('latin1')).toBe('__');
    expect(feed(framing, `\x1b]7770;Eother_1\x07 __tg_E_${NONCE}x\r\n${run.end}3\r\n`, 2)).toBe(
      `\x1b]7770;Eother_1\x07 __tg_E_${NONCE}x\r\n`,
    );
    expect([output(), got.exit]).toEqual([`def __init__\x1b]7770;Eother_1\x07 __tg_E_${NONCE}x\r\n`, 3]);
  });

  it('passes what it held as it came when its run ends first, and still removes its markers if they come later', () => {
    const { run, framing, got } = framed('sleep 100', 'osc');
    expect(framing.push(Buffer.from(`${run.line}\r\n`, 'latin1')).toString('latin1')).toBe('');
    expect(framing.detach().toString('latin1')).toBe(`${run.line}\r\n`);
    expect(feed(framing, `${run.start}zz\r\n${run.end}130\x07$ `, 3)).toBe('zz\r\n$ ');
    expect([got.began, got.output, got.exit, framing.finished]).toEqual([false, [], undefined, true]);
  });

  it('shows the command even when the shell showed nothing of the line (echo turned off)', () => {
    const { run, framing, output } = framed('id -u', 'osc');
    expect(feed(framing, `${run.start}0\r\n${run.end}0\x07`, 6)).toBe('id -u\r\n0\r\n');
    expect(output()).toBe('0\r\n');
  });
});

describe('the display of a typed line', () => {
  it('is found with line breaks, carriage returns, backspaces and escape sequences between its characters', () => {
    const want = Buffer.from('printf x');
    expect(findTyped(Buffer.from('$ pr\r\r\nin\x1b[7mtf\x1b[27m \bx'), want)).toEqual({ at: 2, whole: true });
    expect(findTyped(Buffer.from('$ p print'), want)).toEqual({ at: 4, whole: false });
    expect(findTyped(Buffer.from('pwd; printf y'), want)).toBeUndefined();
  });

  it('is found when mksh scrolls it sideways: the shown part drawn again, padded, marked, stepped back to', () => {
    const want = Buffer.from("printf '\\033]7770;Sab");
    // What mksh 59c printed for this line after a 65-character prompt on 80 columns.
    const scrolled = `printf '\\03\rrintf '\\03${' '.repeat(68)}<${'\b'.repeat(69)}3]7770;Sabcdef`;
    expect(findTyped(Buffer.from(`$ ${scrolled}`), want)).toEqual({ at: 2, whole: true });
    // Cut anywhere in the redraw, it may still be the line: held, not passed.
    for (const cut of [12, 15, 40, 81, 90])
      expect(findTyped(Buffer.from(scrolled.slice(0, cut)), want)?.whole).toBe(false);
    // A carriage return followed by other text is no redraw.
    expect(findTyped(Buffer.from("printf '\\03\rother text"), want)).toBeUndefined();
  });

  it('leaves colours, modes, titles and questions to the terminal behind when it is replaced, not cursor moves', () => {
    expect(
      stateSequences(Buffer.from('\x1b[7mab\x1b[27m\x1b[A\b\x1b[K\x1b[?2004l\x1b]0;t\x07\x1b[6n')).toString(),
    ).toBe('\x1b[7m\x1b[27m\x1b[?2004l\x1b]0;t\x07\x1b[6n');
  });
});

describe('a run’s output', () => {
  it('keeps only its end, and says how much there was', () => {
    const tail = new OutputTail(10);
    for (const piece of ['0123456789', 'abcdefghij', 'XYZ']) tail.push(Buffer.from(piece));
    expect([tail.last().toString(), tail.last(4).toString(), tail.bytes]).toEqual(['defghijXYZ', 'jXYZ', 23]);
  });
});
