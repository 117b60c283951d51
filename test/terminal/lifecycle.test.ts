/**
 * Rule: a terminal belongs to the MCP client that opened it (its token's name), not to the session:
 * it survives the client's reconnect, and another client cannot reach it (the same NOT_FOUND as an
 * id that never existed). Terminals are capped per client and in all, close after their idle time,
 * and end every process they started — background jobs and daemons that left the session with
 * setsid included — when closed, and when the host stops. Counted in /proc.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../host/harness';
import { type TerminalLab, eventually, processesOfTerminal, startTerminalLab } from './support/terminal-lab';

async function tokenFor(lab: TerminalLab, name: string): Promise<string> {
  const r = await lab.person.rpc('createClientToken', { name });
  return (r.body as { token: string }).token;
}

/** Leaves a background job and a setsid daemon behind in the terminal. */
async function leaveProcesses(lab: TerminalLab, id: string, client?: Client): Promise<void> {
  const r = await lab.call('terminal.run', { id, command: 'sleep 1000 & setsid sleep 1001 & sleep 0.2' }, client);
  expect(r.ok, r.text).toBe(true);
}

describe('who a terminal belongs to', () => {
  let lab: TerminalLab;
  let tokenA: string;
  let tokenB: string;
  beforeAll(async () => {
    lab = await startTerminalLab({ busybox: true });
    tokenA = await tokenFor(lab, 'agent-a');
    tokenB = await tokenFor(lab, 'agent-b');
  });
  afterAll(async () => lab?.dispose());

  it('survives its client’s reconnect, and stays out of another client’s reach', async () => {
    const first = await connectClient(lab.t.host, 'agent', tokenA);
    const created = await lab.call('terminal.create', {}, first);
    const id = created.data.id as string;
    await lab.call('terminal.run', { id, command: 'export LEFT=behind' }, first);
    await first.close();

    const again = await connectClient(lab.t.host, 'agent', tokenA);
    const listed = await lab.call('terminal.backends', {}, again);
    expect(listed.data.open).toEqual([expect.objectContaining({ id, backend: 'sandbox', state: 'running' })]);
    expect((await lab.call('terminal.run', { id, command: 'echo $LEFT' }, again)).data.output).toBe('behind');

    const stranger = await connectClient(lab.t.host, 'other', tokenB);
    const unknown = await lab.call('terminal.observe', { id: 'tffffffffffff' }, stranger);
    for (const [tool, args] of [
      ['terminal.observe', { id }],
      ['terminal.run', { id, command: 'echo $LEFT' }],
      ['terminal.write', { id, data: 'x' }],
      ['terminal.snapshot', { id }],
    ] as const) {
      const r = await lab.call(tool, args, stranger);
      expect([tool, r.data.code]).toEqual([tool, 'NOT_FOUND']);
      expect(r.text.replace(id, 'ID')).toBe(unknown.text.replace('tffffffffffff', 'ID'));
    }
    expect((await lab.call('terminal.close', { id }, stranger)).data).toEqual({ id, closed: false });
    expect((await lab.call('terminal.backends', {}, stranger)).data.open).toEqual([]);
    expect((await lab.call('terminal.run', { id, command: 'echo $LEFT' }, again)).data.output).toBe('behind');
    await lab.call('terminal.close', { id }, again);
    await again.close();
    await stranger.close();
  });
});

describe('bounds', () => {
  let lab: TerminalLab;
  beforeAll(async () => {
    lab = await startTerminalLab({
      busybox: true,
      host: { terminal: { limits: { maxPerOwner: 2, maxTotal: 3, idleMs: 1500 } } },
    });
  });
  afterAll(async () => lab?.dispose());

  it('refuses a terminal past the per-client cap, naming the ones to reuse, and past the host’s cap', async () => {
    const a = await lab.call('terminal.create', {});
    const b = await lab.call('terminal.create', {});
    const c = await lab.call('terminal.create', {});
    expect(c.data).toMatchObject({ code: 'EXECUTION_FAILED', data: { limit: 2 } });
    expect(c.text).toContain(a.data.id as string);
    expect(c.text).toContain('terminal.close');
    const other = await connectClient(lab.t.host, 'second', await tokenFor(lab, 'second'));
    expect((await lab.call('terminal.create', {}, other)).ok).toBe(true);
    const full = await lab.call('terminal.create', {}, other);
    expect(full.data).toMatchObject({ code: 'EXECUTION_FAILED', data: { limit: 3 } });
    await other.close();
    for (const t of [a, b]) await lab.call('terminal.close', { id: t.data.id });
  });

  it('closes a terminal left idle, with the processes it started', async () => {
    const idle = await lab.call('terminal.create', {});
    const id = idle.data.id as string;
    await leaveProcesses(lab, id);
    expect(processesOfTerminal(id).length).toBeGreaterThanOrEqual(3);
    const gone = await eventually(
      async () => (await lab.t.host.api.terminals({})).some((t) => t.id === id),
      (open) => !open,
      20_000,
    );
    expect(gone).toBe(false);
    expect(
      await eventually(
        () => processesOfTerminal(id),
        (p) => p.length === 0,
      ),
    ).toEqual([]);
    expect((await lab.call('terminal.observe', { id })).data.code).toBe('NOT_FOUND');
  });
});

describe('ending what a terminal started', () => {
  it('ends every process of a sandbox and a host terminal when each is closed', async () => {
    const lab = await startTerminalLab({ busybox: true, hostEnabled: true });
    try {
      const sandbox = (await lab.call('terminal.create', {})).data.id as string;
      const host = (await lab.call('terminal.create', { backend: 'host' })).data.id as string;
      const grant = lab.call('terminal.write', { id: host, data: '{Enter}' });
      await lab.answerNext('approve_session');
      await grant;
      for (const id of [sandbox, host]) await leaveProcesses(lab, id);
      for (const id of [sandbox, host]) {
        const before = processesOfTerminal(id);
        expect(before.length).toBeGreaterThanOrEqual(3);
        expect((await lab.call('terminal.close', { id })).data).toEqual({ id, closed: true });
        expect(processesOfTerminal(id)).toEqual([]);
      }
    } finally {
      await lab.dispose();
    }
  });

  it('ends every terminal’s processes when the host stops', async () => {
    const lab = await startTerminalLab({ busybox: true, hostEnabled: true });
    const ids: string[] = [];
    try {
      for (const backend of ['sandbox', 'sandbox', 'host']) {
        const id = (await lab.call('terminal.create', { backend })).data.id as string;
        ids.push(id);
        if (backend === 'host') {
          const grant = lab.call('terminal.write', { id, data: '{Enter}' });
          await lab.answerNext('approve_session');
          await grant;
        }
        await leaveProcesses(lab, id);
      }
      expect(ids.flatMap(processesOfTerminal).length).toBeGreaterThanOrEqual(9);
    } finally {
      await lab.dispose();
    }
    expect(ids.flatMap(processesOfTerminal)).toEqual([]);
  });
});
