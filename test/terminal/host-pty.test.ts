/**
 * Rule: a `host` terminal is a real PTY on this machine (node-pty), and only once the person turned
 * on terminalHostEnabled. It behaves as a terminal does: `stty size` follows a resize, Ctrl-C stops
 * the program in front (`sleep 100`), a full-screen program (`top`) reads back through
 * terminal.snapshot, the shell keeps its state between runs, and a long output comes back cut with
 * its end kept. (What it takes to act on one without the person is in
 * test/security/terminal-approvals.test.ts; here the person let this client drive it.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMING, outputEnd, runViews } from './support/run-views';
import { type TerminalLab, eventually, processesOfTerminal, startTerminalLab } from './support/terminal-lab';

let lab: TerminalLab;
let id: string;

beforeAll(async () => {
  lab = await startTerminalLab();
  const off = await lab.call('terminal.create', { backend: 'host' });
  expect(off.ok).toBe(false);
  expect(off.data).toMatchObject({ code: 'UNSUPPORTED', data: { setting: 'terminalHostEnabled' } });
  expect(off.text).toContain('terminalHostEnabled');
  await lab.person.rpc('updateSettings', { changes: { terminalHostEnabled: true } });
  const created = await lab.call('terminal.create', { backend: 'host', cols: 80, rows: 24, title: 'host pty' });
  expect(created.ok, created.text).toBe(true);
  id = created.data.id as string;
  // The person lets this client drive this terminal for its session.
  const enter = lab.call('terminal.write', { id, data: '{Enter}' });
  expect((await lab.answerNext('approve_session')).toolId).toBe('terminal.write');
  expect((await enter).ok).toBe(true);
}, 60_000);
afterAll(async () => lab?.dispose());

const run = async (command: string, timeoutMs = 20_000) => {
  const r = await lab.call('terminal.run', { id, command, timeoutMs });
  expect(r.ok, r.text).toBe(true);
  return r.data as { output: string; exitCode: number | null; ended: string; truncated: boolean; bytes: number };
};

describe('a host terminal', () => {
  it('is a shell on this machine, starting in the workspace', async () => {
    const r = await run('pwd; echo "$TERM"');
    expect(r.output.split('\n')).toEqual([lab.workspace, 'xterm-256color']);
    expect(r.exitCode).toBe(0);
  });

  it(
    'shows the agent’s commands and their output in the scrollback, on the screen and to the ' +
      'model, never the run’s framing',
    async () => {
      const from = await outputEnd(lab, id);
      const long = `echo ${'x'.repeat(120)}`;
      expect((await run('echo framed-host')).output).toBe('framed-host');
      expect((await run(long)).output).toBe('x'.repeat(120));
      const views = await runViews(lab, id, from);
      for (const [name, view] of Object.entries(views)) expect([name, FRAMING.test(view)]).toEqual([name, false]);
      expect(views.raw).toContain('echo framed-host\r\n');
      expect(views.raw).toContain('framed-host\r\n');
      expect(views.text).toContain('echo framed-host\nframed-host\n');
      expect(views.text).toContain(`# ${long}\n${'x'.repeat(120)}\n`);
      expect(views.screen).toContain('# echo framed-host\nframed-host\n');
      expect(views.screen.replace(/\n/g, '')).toContain(`# ${long}${'x'.repeat(120)}`);
    },
  );

  it(
    'shows a command typed while a prompt hook still runs with its prompt, and without the line ' +
      'discipline’s echo of it',
    async () => {
      // The hook (the shell itself, busy counting) outlasts the wait for the shell to read, so the
      // line is typed ahead of the prompt.
      expect((await run("PROMPT_COMMAND='i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'")).exitCode).toBe(0);
      const from = await outputEnd(lab, id);
      expect((await run('echo typed-ahead')).output).toBe('typed-ahead');
      expect((await run('unset PROMPT_COMMAND')).exitCode).toBe(0);
      const views = await runViews(lab, id, from);
      for (const [name, view] of Object.entries(views)) expect([name, FRAMING.test(view)]).toEqual([name, false]);
      expect(views.text).toMatch(/# echo typed-ahead\ntyped-ahead\n.*# unset PROMPT_COMMAND\n/);
      expect(views.text.match(/echo typed-ahead/g)).toHaveLength(1);
    },
  );

  it('reports `stty size` as created and again after each resize', async () => {
    expect((await run('stty size')).output).toBe('24 80');
    expect((await lab.call('terminal.resize', { id, cols: 132, rows: 43 })).ok).toBe(true);
    expect((await run('stty size')).output).toBe('43 132');
    await lab.call('terminal.resize', { id, cols: 80, rows: 24 });
    expect((await run('stty size')).output).toBe('24 80');
  });

  it('stops `sleep 100` with Ctrl-C, and the next command runs', async () => {
    const sleeping = lab.call('terminal.run', { id, command: 'sleep 100', timeoutMs: 60_000 });
    const pids = await eventually(
      () => processesOfTerminal(id).filter((p) => comm(p) === 'sleep'),
      (p) => p.length === 1,
    );
    expect(pids).toHaveLength(1);
    expect((await lab.call('terminal.write', { id, data: '{Ctrl-C}' })).ok).toBe(true);
    const r = await sleeping;
    expect(r.data.ended).toMatch(/^(interrupted|exit-status)$/);
    if (r.data.ended === 'exit-status') expect(r.data.exitCode).toBe(130);
    expect(processesOfTerminal(id).filter((p) => comm(p) === 'sleep')).toEqual([]);
    expect((await run('echo still here')).output).toBe('still here');
  });

  it('shows top’s screen through terminal.snapshot, and the shell again after q', async () => {
    await lab.call('terminal.write', { id, data: 'top -d 1{Enter}' });
    const snap = await eventually(
      async () =>
        (await lab.call('terminal.snapshot', { id })).data as { lines: string[]; buffer: string; foreground: string },
      (s) => s.lines.some((l) => /^\s*PID\s+USER/.test(l)) && s.lines.some((l) => l.startsWith('top -')),
    );
    expect(snap.lines.find((l) => l.startsWith('top -'))).toMatch(/load average/);
    expect(snap.lines.some((l) => /^\s*PID\s+USER\s+PR\s+NI/.test(l))).toBe(true);
    expect(snap.foreground).toBe('top');
    await lab.call('terminal.write', { id, data: 'q' });
    const back = await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data as { foreground: string },
      (s) => s.foreground !== 'top',
    );
    expect(back.foreground).toMatch(/sh$/);
  });

  it('reads less on its alternate screen, and its arrow keys in application mode', async () => {
    await run('seq 1 500 > lines.txt');
    await lab.call('terminal.write', { id, data: 'less lines.txt{Enter}' });
    const first = await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data as { lines: string[]; buffer: string },
      (s) => s.buffer === 'alternate' && s.lines[0] === '1',
    );
    expect(first.buffer).toBe('alternate');
    expect(first.lines.slice(0, 3)).toEqual(['1', '2', '3']);
    await lab.call('terminal.write', { id, data: '{Down}{Down}' });
    const scrolled = await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data as { lines: string[] },
      (s) => s.lines[0] === '3',
    );
    expect(scrolled.lines[0]).toBe('3');
    await lab.call('terminal.write', { id, data: 'q' });
    const back = await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data as { buffer: string; foreground: string },
      (s) => s.buffer === 'normal' && s.foreground !== 'less',
    );
    expect(back.buffer).toBe('normal');
  });

  it('keeps the shell’s state between runs', async () => {
    await run('cd /tmp && export TG_PROBE=kept');
    expect((await run('pwd; echo $TG_PROBE')).output).toBe('/tmp\nkept');
    await run(`cd ${lab.workspace}`);
  });

  it('returns the end of an output longer than 64 KB, marked as cut, with the exit status', async () => {
    const r = await run('seq 1 200000; false');
    expect(r.truncated).toBe(true);
    expect(r.bytes).toBeGreaterThan(1_000_000);
    expect(r.output.endsWith('199999\n200000')).toBe(true);
    expect(r.output.length).toBeLessThanOrEqual(64 * 1024);
    expect(r.exitCode).toBe(1);
  });

  it('gives the shell a plain environment: no variable of the host process reaches it', async () => {
    process.env.TOOLGATE_TEST_SECRET = 'should-not-pass';
    const other = await lab.call('terminal.create', { backend: 'host' });
    const oid = other.data.id as string;
    const grant = lab.call('terminal.write', { id: oid, data: '{Enter}' });
    await lab.answerNext('approve_session');
    await grant;
    const r = await lab.call('terminal.run', { id: oid, command: 'env | grep -c TOOLGATE_TEST_SECRET' });
    expect(r.data.output).toBe('0');
    delete process.env.TOOLGATE_TEST_SECRET;
    await lab.call('terminal.close', { id: oid });
  });
});

function comm(pid: number): string {
  try {
    return require('node:fs').readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
