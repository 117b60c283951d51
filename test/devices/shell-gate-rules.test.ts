/**
 * Rule (issue 12, item 3): the decisions of the shell gate that are choices, stated one by one.
 * The corpus test (test/security/shell-gate-mksh.test.ts) checks the gate against real mksh; this
 * file pins what the gate says and why.
 */
import { describe, expect, it } from 'vitest';
import { judgeCommandLine } from '../../tools/devices';

const verdict = (line: string) => judgeCommandLine(line).verdict;

describe('reasons', () => {
  it.each([
    ['echo QX7SECRETQX7 1<>/sdcard/x', 'writes a file through the redirection `1<>`'],
    ['sort -o /sdcard/y /proc/QX7SECRETQX7', '`-o`: sort writes its output to a file'],
    ['uniq /proc/QX7SECRETQX7 /sdcard/z', '`/sdcard/z`: a second file operand, which uniq writes its output to'],
    ['dumpsys battery set level QX7SECRETQX7', "`set`: a dumpsys verb that changes the device's state"],
    [
      'LD_PRELOAD=/QX7SECRETQX7 ls /',
      '`LD_PRELOAD=`: sets the environment variable LD_PRELOAD for the command it runs',
    ],
    ['echo QX7SECRETQX7; reboot', '`reboot`: restarts the device'],
  ])('name only the offending token of %j', (line, reason) => {
    const { reasons } = judgeCommandLine(line);
    expect(reasons).toEqual([reason]);
    expect(reasons.join(' ')).not.toContain('QX7SECRETQX7');
  });

  it('cut a long offending token short', () => {
    const [reason] = judgeCommandLine(`rm -rf /${'x/'.repeat(40)}..${'/..'.repeat(40)}`).reasons;
    expect(reason!.length).toBeLessThan(140);
    expect(reason).toMatch(/^`\/x\/x\/.*…`: recursive rm of a system or user-data root \(\/\)$/);
  });
});

describe('redirections', () => {
  it.each([
    'ls 2>/dev/null',
    'ls >/dev/null 2>&1',
    'ls >&2',
    'ls 2>&-',
    'ls <&0',
    'cat </proc/version',
    'ls >/dev/./null',
  ])('duplicating, closing or reading descriptors and writing /dev/null leave %j read-only', (line) =>
    expect(verdict(line)).toBe('read'),
  );

  it.each([
    'ls >x',
    'ls 1>x',
    'ls 2>x',
    'ls >>x',
    'ls >|x',
    'ls <>x',
    'ls 0<>x',
    'ls &>x',
    'ls &>>x',
    'ls >&x',
    'ls 9>x',
  ])('%j asks, whatever the descriptor', (line) => expect(verdict(line)).toBe('ask'));
});

describe('protected roots', () => {
  it.each([
    'rm -rf /storage/self/primary/..',
    'rm -rf /mnt/sdcard',
    'rm -rf /mnt/user/0',
    'rm -rf /data/media',
    'rm -rf /data/media/0/..',
    'rm -rf /data/data/.',
    'rm -rf //system//',
    'rm -rf /vendor/..',
    'chmod -R 000 /data/user/0/',
  ])('are refused under every other name: %j', (line) => expect(verdict(line)).toBe('deny'));

  it.each(['rm -rf /sdcard/Download/old', 'rm -rf /data/local/tmp/build', 'rm -rf /data/media/0/Download'])(
    'a folder inside one is only asked about: %j',
    (line) => expect(verdict(line)).toBe('ask'),
  );
});

describe('paths the gate cannot resolve from the text', () => {
  it.each([
    'rm -r $DIR',
    'rm -rf "$DIR"',
    'rm -rf ~',
    'rm -rf $(getprop x)',
    'rm -r /sdcard/$name',
    'cd $D; rm -rf build',
  ])('a recursive rm of %j is refused', (line) => expect(verdict(line)).toBe('deny'));

  it('an unquoted expansion may become `-rf`, so it counts as recursive', () => {
    expect(verdict('rm $x /sdcard')).toBe('deny');
    expect(verdict('rm "/sdcard/Download/$f"')).toBe('ask');
  });

  it('relative paths are taken from every directory the line may be in', () => {
    expect(verdict('cd /sdcard/Download && rm -rf old')).toBe('ask');
    expect(verdict('cd /storage/emulated || true; rm -rf 0')).toBe('deny');
    expect(verdict('cd /storage; cd emulated; rm -r -f 0')).toBe('deny');
  });

  it('a pattern is refused when it may match a protected root, or everything inside one', () => {
    expect(verdict('rm -rf /s*/emulated')).toBe('deny');
    expect(verdict('rm -rf /data/[dm]*')).toBe('deny');
    expect(verdict('rm -rf /sdcard/?*')).toBe('deny');
    expect(verdict('rm -rf /sdcard/*.tmp')).toBe('ask');
    expect(verdict('rm -rf /sdcard/*/..')).toBe('deny');
  });
});

describe('what the parser does not follow is never read-only', () => {
  it.each([
    'echo "open',
    "echo 'open",
    'echo `open',
    'echo $(open',
    'cat <<E\nno end',
    'echo $((1+2))',
    '((x=1))',
    'echo @(a|b)',
    'ls )',
    'echo ${x',
    'ls \\',
    'ls\0; reboot',
    'x=$(cat <<E)\nbody\nE',
  ])('%j', (line) => expect(verdict(line)).not.toBe('read'));
});

describe('commands', () => {
  it('a program named by a path outside the system folders is the user’s own', () => {
    expect(verdict('/system/bin/ls /sdcard')).toBe('read');
    expect(verdict('/apex/com.android.runtime/bin/ls')).toBe('read');
    expect(verdict('/data/local/tmp/ls')).toBe('ask');
    expect(verdict('./ls')).toBe('ask');
    expect(verdict('/sdcard/../system/bin/ls')).toBe('read');
  });

  it('brace expansion is followed, so it cannot hide an option', () => {
    expect(verdict('sort {-o,/sdcard/y} /proc/version')).toBe('ask');
    expect(verdict('rm -rf /{x,sdcard}')).toBe('deny');
  });

  it('an expansion in the command name may be empty, so the next word is judged as the command', () => {
    expect(verdict('$EMPTY reboot')).toBe('deny');
    expect(verdict('"$EMPTY" reboot')).toBe('ask');
  });

  it('wrappers are judged by what they run, and shells, eval and exec are never read-only', () => {
    expect(verdict('nice -n 5 timeout 3 env busybox ls')).toBe('read');
    expect(verdict('sh -c "ls"')).toBe('ask');
    expect(verdict('eval ls')).toBe('ask');
    expect(verdict('exec ls')).toBe('ask');
    expect(verdict('find /sdcard -name x -exec rm -f {} +')).toBe('ask');
    expect(verdict('find /sdcard | xargs -0 rm -rf')).toBe('deny');
  });

  it('upper-case variables change how commands run; lower-case ones are plain shell variables', () => {
    expect(verdict('PATH=/data/local/tmp; ls')).toBe('ask');
    expect(verdict('x=/sdcard; ls $x')).toBe('read');
    expect(verdict('x=/sdcard; rm -rf $x')).toBe('deny');
    expect(verdict('export x=1')).toBe('ask');
  });
});

describe('bounds', () => {
  it.each([
    ['$('.repeat(4000), 'ask'],
    ['${x:-'.repeat(1600), 'ask'],
    ['"$(echo "'.repeat(800), 'ask'],
    ['('.repeat(8000), 'ask'],
    ['{ '.repeat(4000), 'ask'],
    ['f() '.repeat(2000), 'ask'],
    ['`\\`'.repeat(2600), 'ask'],
    [`rm -rf ${'/*'.repeat(3990)}`, 'deny'],
    [`rm -rf /${'sdcard/../'.repeat(790)}`, 'deny'],
    [`echo ${'{a,b}'.repeat(1500)}`, 'read'],
  ])('a deeply nested or huge line is judged without failing (%#)', (line, expected) => {
    expect(verdict(line)).toBe(expected);
  });
});
