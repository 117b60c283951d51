/**
 * Rule: `terminal.run` with `output: "pipe"` runs the command at the terminal's own prompt, in the
 * same shell (its directory and variables stay, as for any prompt command), but its output and
 * errors reach the run through a pipe the host made, not through the PTY: the run returns them and
 * the exit status, keeps the end of a long output, holds no more memory for a 40 MB output than for
 * a short one, and the screen shows the command with a note where its output went. On the host and
 * in the sandbox alike (the sandbox sees only its terminal's folder of pipes, read-only). A
 * background process still holding the pipe after the run has what it writes shown in the terminal,
 * and so does a line the shell had not yet taken when the run timed out, once it runs.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_OUTPUT_LIMIT } from '../../tools/terminal/limits';
import { type TerminalLab, eventually, startTerminalLab } from './support/terminal-lab';

interface Run {
  output: string;
  exitCode: number | null;
  ended: string;
  truncated: boolean;
  bytes: number;
  mode: string;
  peakHeldBytes?: number;
}

let lab: TerminalLab;
const ids: Record<'host' | 'sandbox', string> = { host: '', sandbox: '' };

beforeAll(async () => {
  lab = await startTerminalLab({ busybox: true, hostEnabled: true });
  ids.sandbox = (await lab.call('terminal.create', { backend: 'sandbox' })).data.id as string;
  ids.host = (await lab.call('terminal.create', { backend: 'host' })).data.id as string;
  // The person lets this client drive the host terminal for its session.
  const enter = lab.call('terminal.write', { id: ids.host, data: '{Enter}' });
  await lab.answerNext('approve_session');
  expect((await enter).ok).toBe(true);
}, 60_000);
afterAll(async () => lab?.dispose());

async function run(id: string, command: string, output: 'pty' | 'pipe' = 'pipe'): Promise<Run & { text: string }> {
  const r = await lab.call('terminal.run', { id, command, output, timeoutMs: 120_000 });
  expect(r.ok, r.text).toBe(true);
  return { ...(r.data as unknown as Run), text: r.text };
}

/** A pipe-mode run in the host terminal that ends at its timeout, as it must. */
async function timedOutPipeRun(command: string, timeoutMs: number) {
  const r = await lab.call('terminal.run', { id: ids.host, command, output: 'pipe', timeoutMs });
  expect(r.data).toMatchObject({ ended: 'timeout', exitCode: null, mode: 'pipe' });
  return r;
}

/** What the host terminal shows new, once it shows `text` (or the last look, when it never does). */
const shownInHostTerminal = (text: string) =>
  eventually(
    async () => (await lab.call('terminal.observe', { id: ids.host })).text,
    (seen) => seen.includes(text),
  );

/** The terminals' folders of pipes on this machine, with their inodes. */
const pipeFolders = () =>
  readdirSync(tmpdir())
    .filter((n) => n.startsWith('toolgate-run-'))
    .map((n) => join(tmpdir(), n))
    .flatMap((path) => {
      const inode = statSync(path, { throwIfNoEntry: false })?.ino;
      return inode === undefined ? [] : [{ path, inode }];
    });

describe.each(['host', 'sandbox'] as const)('pipe mode in a %s terminal', (backend) => {
  it('returns the command’s output and errors, and its exit status', async () => {
    const r = await run(ids[backend], 'echo out; echo err >&2; false');
    expect(r).toMatchObject({ output: 'out\nerr', exitCode: 1, ended: 'exit-status', truncated: false, mode: 'pipe' });
    expect(r.text).toContain('[exit status 1]');
  });

  it('keeps the end of an output longer than the limit, and counts all of it', async () => {
    const r = await run(ids[backend], 'seq 1 30000');
    const all = Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join('');
    expect(r.truncated).toBe(true);
    expect(r.bytes).toBe(all.length);
    expect(r.output).toBe(all.slice(-RUN_OUTPUT_LIMIT).replace(/\n$/, ''));
    expect(r.text).toContain(`of ${all.length} bytes are shown]`);
  });

  it('leaves the shell as a prompt command does: a cd and a variable stay for the next command', async () => {
    await run(ids[backend], 'mkdir -p piped-dir && cd piped-dir; PIPED_VAR=kept');
    expect((await run(ids[backend], 'pwd; echo "$PIPED_VAR"', 'pty')).output).toMatch(/\/piped-dir\nkept$/);
    expect((await run(ids[backend], 'cd ..; pwd')).output).not.toContain('piped-dir');
  });

  it('shows a person the command and where its output went, never the output or the run’s framing', async () => {
    await run(ids[backend], 'echo only-in-the-result');
    const screen = ((await lab.call('terminal.snapshot', { id: ids[backend] })).data.lines as string[]).join('\n');
    expect(screen).toContain(
      "echo only-in-the-result\n[its output goes to the agent's run result, not to this screen]",
    );
    expect(screen).not.toMatch(/only-in-the-result\nonly-in-the-result|toolgate-output|7770;|out-[0-9a-f]{12}/);
  });
});

describe('pipe mode', () => {
  it('holds no more than a bounded tail for a 40 MB output on the host', async () => {
    const r = await run(ids.host, 'yes | head -c 40000000');
    expect(r).toMatchObject({ exitCode: 0, bytes: 40_000_000, truncated: true });
    expect(r.output.length).toBeLessThanOrEqual(RUN_OUTPUT_LIMIT);
    // Bytes of the buffers the kept output pinned, at their most: a bound of the limit, not of the output.
    expect(r.peakHeldBytes).toBeGreaterThanOrEqual(RUN_OUTPUT_LIMIT);
    expect(r.peakHeldBytes).toBeLessThanOrEqual(16 * RUN_OUTPUT_LIMIT);
  });

  it('shows in the terminal what a background process writes to the pipe after the run', async () => {
    const r = await run(ids.host, 'echo now; (sleep 2; echo later-from-background) &');
    // bash tells of the job it started ("[1] 1234") on the group's errors, so in the pipe too.
    expect(r.output.split('\n')[0]).toBe('now');
    expect(r.text).toContain('still holds its output pipe');
    expect(await shownInHostTerminal('later-from-background')).toContain('later-from-background');
  });

  it('shows in the terminal what a command still running at the timeout writes afterwards', async () => {
    const r = await timedOutPipeRun('sleep 1; echo after-the-timeout', 200);
    expect(r.text).toContain('still running after');
    expect(await shownInHostTerminal('after-the-timeout')).toContain('after-the-timeout');
    await eventually(
      async () => (await lab.call('terminal.snapshot', { id: ids.host })).data.foreground,
      (fg) => fg !== 'sleep',
    );
  });

  it('shows in the terminal what a line the shell had not taken by the timeout prints once it runs', async () => {
    // The shell is busy with a loop of its builtins (in front, not reading its input), as under a slow prompt.
    const busy = await lab.call('terminal.write', {
      id: ids.host,
      data: 'i=0; while [ $i -lt 600000 ]; do i=$((i+1)); done{Enter}',
    });
    expect(busy.ok, busy.text).toBe(true);
    const r = await timedOutPipeRun('echo typed-while-busy-$((6*7))', 100);
    expect(r.text).toContain('not started after');
    expect(r.text).not.toContain('still holds its output pipe');
    // The output, not the typed line: the line shows `$((6*7))`, only its output shows 42.
    expect(await shownInHostTerminal('typed-while-busy-42')).toContain('typed-while-busy-42');
  });

  it('gives each terminal its own folder of pipes, removed when it closes', async () => {
    const extra = (await lab.call('terminal.create', { backend: 'sandbox' })).data.id as string;
    // Other test files make and remove such folders meanwhile: a terminal's own is known by its inode.
    const inodeIn = async (id: string) => Number((await run(id, 'stat -c %i /run/toolgate-output')).output.trim());
    const inode = await inodeIn(extra);
    expect(inode).not.toBe(await inodeIn(ids.sandbox));
    const own = pipeFolders().filter((f) => f.inode === inode);
    expect(own).toHaveLength(1);
    expect((await run(extra, 'ls -la /run/toolgate-output; touch /run/toolgate-output/x')).output).toContain(
      'Read-only file system',
    );
    await lab.call('terminal.close', { id: extra });
    expect(existsSync(own[0]!.path)).toBe(false);
  });
});
