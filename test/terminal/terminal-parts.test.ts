/**
 * Rule: the pieces a terminal is read and driven through say exactly what they mean. Key names become
 * the bytes a terminal sends (arrows follow the cursor-key mode), anything but printable text counts
 * as able to start a command; a run's line ends cleanly or is refused; the output log hands out
 * what came after a cursor and says what it dropped; terminal text is what a person would read; and
 * on the host only a read-only line that names nothing runs without the person. (What a run's
 * framing shows and hides is in run-framing.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { hostJudgement } from '../../tools/terminal/host-command-policy';
import { describeKeys, encodeKeys, hasControlBytes, unknownKeyNames } from '../../tools/terminal/keys';
import { OutputLog } from '../../tools/terminal/output-log';
import { buildRunLine, stripComment, unrunnable } from '../../tools/terminal/run-markers';
import { judgeTerminalCommand } from '../../tools/terminal/shell-gate-adapter';
import { completeUtf8Length, terminalText } from '../../tools/terminal/terminal-text';

describe('keys', () => {
  it('turns key names into their bytes, arrows by the cursor-key mode, and leaves other braces alone', () => {
    expect(encodeKeys(':wq{Enter}')).toBe(':wq\r');
    expect(encodeKeys('{Ctrl-C}{Ctrl-\\}{Esc}{Tab}{Shift-Tab}')).toBe('\x03\x1c\x1b\t\x1b[Z');
    expect(encodeKeys('{Up}{Home}')).toBe('\x1b[A\x1b[H');
    expect(encodeKeys('{Up}{Home}', { applicationCursor: true })).toBe('\x1bOA\x1bOH');
    expect(encodeKeys('{F5}{Alt-b}{PageDown}')).toBe('\x1b[15~\x1bb\x1b[6~');
    expect(encodeKeys('echo ${HOME} {a,b} {} {Entr}')).toBe('echo ${HOME} {a,b} {} {Entr}');
    expect(encodeKeys("grep 'a\\.b' x\\n")).toBe("grep 'a\\.b' x\\n");
  });

  it('names the braces that look like a key but are none, and never shell text in braces', () => {
    expect(unknownKeyNames('ls{Entr}{ArrowUp}{Ctrl-1}{Enter}{Entr}')).toEqual(['Entr', 'ArrowUp', 'Ctrl-1']);
    expect(unknownKeyNames('echo ${HOME} {a,b} {} {x} {Alt-b}{F5}')).toEqual([]);
  });

  it(
    'counts any control character, tab and escape included, ' + 'as able to start a command, and shows them by name',
    () => {
      for (const text of ['\r', '\n', '\t', '\x1b[A', '\x0f', '\u009b'])
        expect([JSON.stringify(text), hasControlBytes(text)]).toEqual([JSON.stringify(text), true]);
      expect(hasControlBytes('ls -la ~/src && éèü')).toBe(false);
      expect(describeKeys('ls\r\x03\x1b[A\t')).toBe('ls{Enter}{Ctrl-C}{Esc}[A{Tab}');
    },
  );
});

describe('a run’s markers', () => {
  it('drops a trailing comment but not a # inside quotes or words, and refuses what cannot end on one line', () => {
    expect(stripComment('ls # list')).toBe('ls ');
    expect(stripComment('echo \'#not\' "# no" a#b')).toBe('echo \'#not\' "# no" a#b');
    expect(unrunnable('echo a\necho b')).toMatch(/several lines/);
    expect(unrunnable("echo 'open")).toMatch(/single quote/);
    expect(unrunnable('echo done\\')).toMatch(/backslash/);
    expect(unrunnable('echo "fine" \'too\'')).toBeUndefined();
  });

  it('keeps a trailing & a background job and a trailing ; out of the line', () => {
    expect(buildRunLine('sleep 5 &', 'n', 'text').line).toContain('sleep 5 & printf');
    expect(buildRunLine('ls;', 'n', 'text').line).toContain('; ls; printf');
    expect(buildRunLine('ls', 'n1', 'osc').line).not.toContain('\x1b');
  });
});

describe('the output log', () => {
  it('answers from a cursor, with what is left and what it no longer keeps', () => {
    const log = new OutputLog(10);
    log.append(Buffer.from('0123456789'));
    log.append(Buffer.from('abcde'));
    expect([log.start, log.end]).toEqual([5, 15]);
    expect(log.read(0, 3)).toEqual({ data: Buffer.from('567'), from: 5, to: 8, dropped: 5, more: 7 });
    expect(log.read(12, 100)).toMatchObject({ data: Buffer.from('cde'), dropped: 0, more: 0 });
    expect(log.tail(4).data.toString()).toBe('bcde');
  });

  it(
    'keeps exactly its budget’s newest bytes however small ' +
      'the pieces come, and a piece read is never changed later',
    () => {
      const log = new OutputLog(100);
      let all = '';
      let early: Buffer | undefined;
      for (let i = 0; i < 10_000; i++) {
        const piece = `${i % 10}\r\n`;
        log.append(Buffer.from(piece));
        all += piece;
        if (i === 20) early = log.read(0, 100).data;
      }
      log.append(Buffer.from('x'.repeat(2000)));
      log.append(Buffer.from('end'));
      all += `${'x'.repeat(2000)}end`;
      expect([log.start, log.end]).toEqual([all.length - 100, all.length]);
      expect(log.tail(100).data.toString()).toBe(all.slice(-100));
      expect(log.read(5, 10)).toMatchObject({ from: all.length - 100, dropped: all.length - 105 });
      expect(early?.toString()).toBe(all.slice(0, 63));
    },
  );

  it('never cuts a character in two at the end of a piece', () => {
    const e = Buffer.from('aé');
    expect(completeUtf8Length(e.subarray(0, 2))).toBe(1);
    expect(completeUtf8Length(e)).toBe(3);
    expect(completeUtf8Length(Buffer.from('€').subarray(0, 2))).toBe(0);
  });
});

describe('terminal text', () => {
  it('is what a person reads: colours and titles gone, a rewritten line as it ends, backspaces applied', () => {
    expect(terminalText('\x1b[31mred\x1b[0m\r\n\x1b]0;title\x07next')).toBe('red\nnext');
    expect(terminalText('10%\r50%\r100% done\r\n')).toBe('100% done\n');
    expect(terminalText('abc\b\bX')).toBe('aXc');
  });
});

describe('the host’s reading of the shell gate', () => {
  const host = (command: string) => hostJudgement(command, judgeTerminalCommand(command)).verdict;
  it('runs only read-only lines that name nothing, and asks for any that name a file, expand, assign or recall', () => {
    for (const c of ['pwd', 'ls -la', 'id', 'date', 'uname -a', 'df -h', 'echo'])
      expect([c, host(c)]).toEqual([c, 'read']);
    for (const c of [
      'cat host.json',
      'ls ..',
      'cat ~/.ssh/id_rsa',
      'echo $HOME',
      'PATH=. ls',
      '!!',
      '^ls^cat',
      'ls > out',
      'cat < token',
    ])
      expect([c, host(c)]).toEqual([c, 'ask']);
    expect(host('rm -rf /')).toBe('deny');
  });
});
