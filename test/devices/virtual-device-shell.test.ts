/**
 * Rule: the device shell splits a command line exactly as POSIX sh would, so `executedCommands`
 * proves what ran. A payload quoted as one shell word runs as one command; unquoted operators,
 * newlines and command substitutions run more.
 */
import { describe, expect, it } from 'vitest';
import { parseScript } from '../../tools/devices/virtual';
import { useVirtualDevice } from './virtual-device-harness';

const vd = useVirtualDevice();
const { shell } = vd;

/** Runs a line and returns what it printed and the commands the device executed for it. */
async function run(command: string | string[]): Promise<{ out: string; executed: string[][] }> {
  const before = vd.device.executedCommands.length;
  const out = await shell(command);
  return { out, executed: vd.device.executedCommands.slice(before) };
}

/** Single-quotes a word for sh, the way a host should pass untrusted arguments. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

describe('device shell: quoting keeps payloads inside one command', () => {
  it("runs `echo 'a;rm -rf /'` as exactly one command", async () => {
    const { out, executed } = await run("echo 'a;rm -rf /'");
    expect(executed).toEqual([['echo', 'a;rm -rf /']]);
    expect(out).toBe('a;rm -rf /\n');
  });

  it('keeps every classic injection payload inside one argument when single-quoted', async () => {
    const payloads = [
      'a; reboot',
      'a && reboot',
      'a || reboot',
      'a | reboot',
      '$(reboot)',
      '`reboot`',
      'a\nreboot',
      "it's; reboot",
      '"; reboot; "',
      '\\; reboot',
      '> /sdcard/pwned',
      '${IFS}reboot',
    ];
    for (const payload of payloads) {
      const { out, executed } = await run(`echo ${quote(payload)}`);
      expect(executed, payload).toEqual([['echo', payload]]);
      expect(out, payload).toBe(`${payload}\n`);
    }
    expect(vd.device.phone.rebootRequests).toEqual([]);
    expect(vd.device.phone.fs.stat('/sdcard/pwned')).toBeNull();
  });

  it('keeps adbkit array arguments (which adbkit single-quotes) as one word each', async () => {
    const { executed } = await run(['echo', "it's $(id); reboot", '`whoami`']);
    expect(executed).toEqual([['echo', "it's $(id); reboot", '`whoami`']]);
  });

  it('treats double quotes as one word but still expands $(…) inside them', async () => {
    const { out, executed } = await run('echo "a b;c $(whoami)"');
    expect(executed).toEqual([['whoami'], ['echo', 'a b;c shell']]);
    expect(out).toBe('a b;c shell\n');
  });

  it('treats a backslash-escaped operator as a literal character', async () => {
    const { executed } = await run('echo a\\;reboot \\$\\(id\\)');
    expect(executed).toEqual([['echo', 'a;reboot', '$(id)']]);
  });
});

describe('device shell: operators run several commands', () => {
  it('runs both sides of `;`', async () => {
    const { out, executed } = await run('echo a; rm -rf /sdcard/nothing-here');
    expect(executed).toEqual([
      ['echo', 'a'],
      ['rm', '-rf', '/sdcard/nothing-here'],
    ]);
    expect(out).toBe('a\n');
  });

  it('short-circuits `&&` and `||` on the exit status', async () => {
    expect((await run('false && echo no')).executed).toEqual([['false']]);
    expect((await run('true && echo yes')).executed).toEqual([['true'], ['echo', 'yes']]);
    expect((await run('true || echo no')).executed).toEqual([['true']]);
    expect((await run('false || echo yes')).out).toBe('yes\n');
  });

  it('pipes output into the next command', async () => {
    const { out, executed } = await run('getprop | grep ro.product.model');
    expect(executed).toEqual([['getprop'], ['grep', 'ro.product.model']]);
    expect(out).toBe('[ro.product.model]: [Pixel 8]\n');
  });

  it('treats newlines as command separators', async () => {
    const { out, executed } = await run('echo one\necho two');
    expect(executed).toEqual([
      ['echo', 'one'],
      ['echo', 'two'],
    ]);
    expect(out).toBe('one\ntwo\n');
  });

  it('executes $(…) and backtick substitutions, and records the inner commands', async () => {
    const { out, executed } = await run('echo $(whoami) `id -u`');
    expect(executed).toEqual([['whoami'], ['id', '-u'], ['echo', 'shell', '2000']]);
    expect(out).toBe('shell 2000\n');
  });

  it('splits an unquoted substitution into fields, but not a quoted one', async () => {
    expect((await run("echo $(echo 'a   b')")).executed.at(-1)).toEqual(['echo', 'a', 'b']);
    expect((await run('echo "$(echo \'a   b\')"')).executed.at(-1)).toEqual(['echo', 'a   b']);
  });

  it('runs `sh -c` payloads (a second parse is a second chance to inject)', async () => {
    const { executed } = await run("sh -c 'echo x; echo y'");
    expect(executed).toEqual([
      ['sh', '-c', 'echo x; echo y'],
      ['echo', 'x'],
      ['echo', 'y'],
    ]);
  });

  it('records commands that do not exist too: an attempted injection is still an injection', async () => {
    const { out, executed } = await run('echo a; evil-binary --go');
    expect(executed).toEqual([
      ['echo', 'a'],
      ['evil-binary', '--go'],
    ]);
    expect(out).toBe('a\n/system/bin/sh: evil-binary: not found\n');
  });
});

describe('device shell: redirections and variables', () => {
  it('drops stderr with 2>/dev/null', async () => {
    expect(await shell('cat /nope 2>/dev/null; echo done')).toBe('done\n');
  });

  it('writes and appends files with > and >>, and reads them back', async () => {
    await shell('echo first > /sdcard/out.txt; echo second >> /sdcard/out.txt');
    expect(await shell('cat /sdcard/out.txt')).toBe('first\nsecond\n');
    expect(vd.device.phone.fs.read('/storage/emulated/0/out.txt').toString()).toBe('first\nsecond\n');
  });

  it('sends stderr into stdout with 2>&1', async () => {
    expect(await shell('cat /nope 2>&1 | grep -c "No such file"')).toBe('1\n');
  });

  it('expands $? and variables, and keeps quoted dollars literal', async () => {
    expect(await shell('false; echo $?')).toBe('1\n');
    expect(await shell('X=hi; echo $X \'$X\' "$X"')).toBe('hi $X hi\n');
  });

  it('reports a syntax error with status 1 and runs nothing', async () => {
    const { out, executed } = await run("echo 'unterminated");
    expect(executed).toEqual([]);
    expect(out).toContain('syntax error');
  });
});

describe('device shell parser', () => {
  it('parses a line into lists, pipelines and words with quoting kept', () => {
    const script = parseScript(`a 'b c' | d && e "$(f)" 2>/dev/null; g`);
    expect(script).toHaveLength(2);
    expect(script[0]?.first.commands).toHaveLength(2);
    expect(script[0]?.rest[0]?.op).toBe('&&');
    const e = script[0]?.rest[0]?.pipeline.commands[0];
    expect(e?.kind === 'simple' && e.redirects[0]).toMatchObject({ fd: 2, op: '>' });
    expect(e?.kind === 'simple' && e.words[1]?.[0]).toMatchObject({ kind: 'subst', quoted: true });
  });
});
