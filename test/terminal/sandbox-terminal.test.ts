/**
 * Rule: a `sandbox` terminal (the default backend) is a shell in a Linux root file system of its
 * own, run by bubblewrap, with the workspace at /workspace. It needs no approval for commands or
 * keys. It behaves as a terminal does (window size, Ctrl-C, full-screen programs), and its output is
 * read three ways: a run's own output and exit status, the stream since the last observe (with a
 * cursor), and a wait for a pattern under the regex guard. Bad arguments are INVALID_ARGUMENT naming
 * the field; a folder outside the workspaces is refused; no root file system says how to make one.
 * (Here the root file system is busybox-static; the Debian one is in debootstrap.test.ts.)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMING, outputEnd, runViews } from './support/run-views';
import { type TerminalLab, eventually, startTerminalLab } from './support/terminal-lab';

let lab: TerminalLab;
let id: string;

beforeAll(async () => {
  lab = await startTerminalLab({ busybox: true });
  const created = await lab.call('terminal.create', { cols: 80, rows: 24, title: 'busybox' });
  expect(created.ok, created.text).toBe(true);
  expect(created.data).toMatchObject({
    backend: 'sandbox',
    rootfs: 'busybox',
    workspace: '/workspace',
    network: false,
  });
  id = created.data.id as string;
}, 60_000);
afterAll(async () => lab?.dispose());

const run = async (command: string, timeoutMs = 20_000) => {
  const r = await lab.call('terminal.run', { id, command, timeoutMs });
  expect(r.ok, r.text).toBe(true);
  return r.data as { output: string; exitCode: number | null; ended: string; verdict: string };
};

describe('a sandbox terminal', () => {
  it('is the default backend, says so, and asks no one for commands or keys', async () => {
    const backends = await lab.call('terminal.backends');
    expect(backends.data.backends).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ backend: 'sandbox', available: true, default: true, runner: 'bubblewrap' }),
      ]),
    );
    expect(await run('echo hi')).toMatchObject({ output: 'hi', exitCode: 0, verdict: 'sandbox' });
    expect((await lab.call('terminal.write', { id, data: 'echo typed{Enter}' })).ok).toBe(true);
    await lab.call('terminal.wait', { id, pattern: 'typed' });
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });

  it(
    'shows the agent’s commands and their output in the scrollback, on the screen and to the ' +
      'model, never the run’s framing',
    async () => {
      const from = await outputEnd(lab, id);
      const long = `echo ${'y'.repeat(100)}`;
      expect((await run('echo framed-$((6 * 7))')).output).toBe('framed-42');
      expect((await run(long)).output).toBe('y'.repeat(100));
      const views = await runViews(lab, id, from);
      for (const [name, view] of Object.entries(views)) expect([name, FRAMING.test(view)]).toEqual([name, false]);
      expect(views.raw).toContain('echo framed-$((6 * 7))\r\nframed-42\r\n');
      expect(views.raw).toContain(`/workspace # \x1b[6n${long}\r\n`);
      expect(views.text).toContain('echo framed-$((6 * 7))\nframed-42\n');
      expect(views.text).toContain(`/workspace # ${long}\n${'y'.repeat(100)}\n`);
      expect(views.screen).toContain('/workspace # echo framed-$((6 * 7))\nframed-42\n');
      expect(views.screen.replace(/\n/g, '')).toContain(`/workspace # ${long}${'y'.repeat(100)}`);
    },
  );

  it('runs in its own root file system, with the workspace at /workspace both ways', async () => {
    writeFileSync(join(lab.workspace, 'from-host.txt'), 'written on the host\n');
    const r = await run('pwd; cat from-host.txt; echo made inside > from-sandbox.txt; ls /');
    const [pwd, content, ...root] = r.output.split('\n');
    expect(pwd).toBe('/workspace');
    expect(content).toBe('written on the host');
    expect(root.join(' ').split(/\s+/).sort()).toEqual([
      'bin',
      'dev',
      'etc',
      'proc',
      'root',
      'run',
      'tmp',
      'workspace',
    ]);
    expect(readFileSync(join(lab.workspace, 'from-sandbox.txt'), 'utf8')).toBe('made inside\n');
  });

  it('gives back each command’s exit status', async () => {
    expect((await run('false')).exitCode).toBe(1);
    expect((await run('sh -c "exit 7"')).exitCode).toBe(7);
    expect((await run('true # a comment does not swallow the status')).exitCode).toBe(0);
    expect((await run('sleep 0 &')).exitCode).toBe(0);
  });

  it('follows a resize: `stty size` prints the new rows and columns', async () => {
    expect((await run('stty size')).output).toBe('24 80');
    await lab.call('terminal.resize', { id, cols: 120, rows: 40 });
    expect((await run('stty size')).output).toBe('40 120');
  });

  it('stops `sleep 100` with terminal.signal INT and takes the next command', async () => {
    const sleeping = lab.call('terminal.run', { id, command: 'sleep 100', timeoutMs: 60_000 });
    await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data.foreground,
      (fg) => fg === 'sleep',
    );
    const sent = await lab.call('terminal.signal', { id, signal: 'INT' });
    expect(sent.data).toMatchObject({ signal: 'INT', foreground: 'sleep' });
    expect((await sleeping).data.ended).toBe('interrupted');
    expect((await run('echo next')).output).toBe('next');
  });

  it('shows busybox top’s screen through terminal.snapshot', async () => {
    await lab.call('terminal.write', { id, data: 'top{Enter}' });
    const snap = await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data as { lines: string[]; foreground: string },
      (s) => s.lines.some((l) => /PID\s+PPID\s+USER/.test(l)),
    );
    expect(snap.lines.some((l) => /^Load average:/.test(l))).toBe(true);
    expect(snap.lines.some((l) => /\btop\b/.test(l) && /\d/.test(l))).toBe(true);
    expect(snap.foreground).toBe('top');
    const busy = await lab.call('terminal.run', { id, command: 'echo no' });
    expect(busy.data).toMatchObject({ code: 'EXECUTION_FAILED' });
    expect(busy.text).toContain('`top` is in the foreground');
    await lab.call('terminal.write', { id, data: 'q' });
    await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data.foreground,
      (fg) => fg === 'sh',
    );
  });

  it('observes the output since the last observe, with a cursor to read on from', async () => {
    await lab.call('terminal.observe', { id, maxBytes: 65536 });
    while (((await lab.call('terminal.observe', { id, maxBytes: 65536 })).data.more as number) > 0);
    await run('echo one; echo two');
    await lab.call('terminal.wait', { id, pattern: '# $' });
    const seen = await lab.call('terminal.observe', { id });
    expect(seen.data.text).toContain('one\ntwo');
    const again = await lab.call('terminal.observe', { id });
    expect(again.data.text).toBe('');
    expect(again.text).toBe('(no new output)');
    const small = await lab.call('terminal.observe', { id, cursor: seen.data.from as number, maxBytes: 5 });
    expect(small.data).toMatchObject({ more: expect.any(Number), cursor: (seen.data.from as number) + 5 });
    expect(small.data.more).toBeGreaterThan(0);
  });

  it('keeps the newest megabyte of output and says how much older output was dropped', async () => {
    await run('yes abcdefghijklmnopqrstuvwxyz | head -c 1500000 > /dev/null; head -c 1300000 /dev/zero | tr "\\0" x');
    const oldest = await lab.call('terminal.observe', { id, cursor: 0, maxBytes: 10 });
    expect(oldest.data.dropped).toBeGreaterThan(200_000);
    expect(oldest.text).toMatch(/older bytes are no longer kept/);
  });

  it('waits for a pattern, and refuses a pattern that would never finish matching', async () => {
    const waiting = lab.call('terminal.wait', { id, pattern: 'ready on port (\\d+)', timeoutMs: 20_000 });
    // The typed line is echoed too: the number is computed, so only the output holds it.
    await lab.call('terminal.write', { id, data: 'sleep 1; echo ready on port $((4000 + 4080)){Enter}' });
    const hit = await waiting;
    expect(hit.data).toMatchObject({ matched: true, match: 'ready on port 8080', groups: ['8080'] });
    await lab.call('terminal.wait', { id, pattern: '# $', cursor: hit.data.cursor as number });
    const none = await lab.call('terminal.wait', {
      id,
      pattern: 'never printed',
      cursor: hit.data.cursor as number,
      timeoutMs: 300,
    });
    expect(none.data).toMatchObject({ matched: false, timedOut: true });
    await run(`printf '${'a'.repeat(40)}!\\n'`);
    const evil = await lab.call('terminal.wait', { id, pattern: '(a+)+$', cursor: 0, timeoutMs: 20_000 });
    expect(evil.data).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['pattern'], reason: 'regex-timeout' },
    });
  });

  it('answers bad arguments with INVALID_ARGUMENT naming the field', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['terminal.create', { backend: 'ssh' }, 'backend'],
      ['terminal.create', { cols: 5 }, 'cols'],
      ['terminal.run', { id, command: 'echo a\necho b' }, 'command'],
      ['terminal.run', { id, command: "echo 'open" }, 'command'],
      ['terminal.run', { id, command: 'x', timeoutMs: 10 }, 'timeoutMs'],
      ['terminal.signal', { id, signal: 'USR1' }, 'signal'],
      ['terminal.wait', { id, pattern: 'x', exit: true }, 'pattern'],
      ['terminal.wait', { id, pattern: '(' }, 'pattern'],
      ['terminal.write', { id, data: 'x'.repeat(20_000) }, 'data'],
    ];
    for (const [tool, args, field] of cases) {
      const r = await lab.call(tool, args);
      expect([tool, field, r.data.code]).toEqual([tool, field, 'INVALID_ARGUMENT']);
      expect([tool, r.data.data]).toEqual([tool, expect.objectContaining({ fields: expect.arrayContaining([field]) })]);
    }
  });

  it('starts in a folder inside the workspace, and refuses one outside every workspace', async () => {
    mkdirSync(join(lab.workspace, 'project'), { recursive: true });
    const inner = await lab.call('terminal.create', { workspace: 'project' });
    expect(inner.ok, inner.text).toBe(true);
    const r = await lab.call('terminal.run', { id: inner.data.id, command: 'echo here > marker; ls /workspace' });
    expect(r.data.output).toBe('marker');
    expect(existsSync(join(lab.workspace, 'project', 'marker'))).toBe(true);
    await lab.call('terminal.close', { id: inner.data.id });
    for (const outside of ['/etc', lab.t.dataDir, join(lab.workspace, '..')]) {
      const refused = await lab.call('terminal.create', { workspace: outside });
      expect([outside, refused.data.code]).toEqual([outside, 'PERMISSION_DENIED']);
      expect(refused.text).toContain('terminal.workspaces');
    }
  });

  it('tells the model when its shell ended, and how to go on', async () => {
    const other = await lab.call('terminal.create', {});
    const oid = other.data.id as string;
    const exiting = await lab.call('terminal.run', { id: oid, command: 'exit 3' });
    expect(exiting.data.ended).toBe('terminal-exited');
    const waited = await lab.call('terminal.wait', { id: oid, exit: true });
    expect(waited.data).toMatchObject({ exited: true, exitCode: 3 });
    const after = await lab.call('terminal.run', { id: oid, command: 'echo x' });
    expect(after.data).toMatchObject({ code: 'EXECUTION_FAILED' });
    expect(after.text).toContain('terminal.close');
    expect((await lab.call('terminal.close', { id: oid })).data).toEqual({ id: oid, closed: true });
    expect((await lab.call('terminal.close', { id: oid })).data).toEqual({ id: oid, closed: false });
  });
});

describe('a host with no root file system yet', () => {
  it('says the sandbox needs one and which tool makes it', async () => {
    const bare = await startTerminalLab();
    try {
      const r = await bare.call('terminal.create', {});
      expect(r.data).toMatchObject({ code: 'NOT_FOUND' });
      expect(r.text).toContain('terminal.linux_bootstrap');
      const status = await bare.call('terminal.linux_status');
      expect(status.data).toMatchObject({ present: false, systems: [], runner: 'bubblewrap', network: 'off' });
    } finally {
      await bare.dispose();
    }
  });
});
