/**
 * Rule: a terminal is never the way around "only a person approves". Through a real MCP client
 * against a real host:
 * - host terminals exist only after the person turned on terminalHostEnabled, and an MCP token
 *   cannot turn it on (the UI API refuses it);
 * - on the host and on a phone, a write that could start a command (a line end, a control key, any
 *   key while a program other than the shell is in front, any key at all on a phone) waits for the
 *   person, and a denial leaves nothing run; the card shows the keys and the line they would submit;
 * - terminal.run passes shell_execute's gate: refused lines are refused, changing lines wait; on the
 *   host a line that names a file waits too, so the data dir's secrets (host.json's link key) are not
 *   one `cat` away;
 * - a grant is the session's: a batch step is asked like a direct call, another session asks again,
 *   and a refused command stays refused after the terminal was approved;
 * - while the person has taken control, the agent cannot type at all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VirtualDevice, connectToAdb, disconnectFromAdb, startVirtualDevice } from '../../tools/devices/virtual';
import { connectClient } from '../host/harness';
import { freePort } from '../support/private-adb';
import { type TerminalLab, eventually, startTerminalLab } from '../terminal/support/terminal-lab';

const BEARER_REFUSED = 'An MCP token calls tools at /mcp and nothing else';

let lab: TerminalLab;
let phone: VirtualDevice;

beforeAll(async () => {
  const adbPort = await freePort();
  process.env.ANDROID_ADB_SERVER_PORT = String(adbPort);
  lab = await startTerminalLab({ host: { adbPort } });
  phone = await startVirtualDevice();
  await connectToAdb(phone);
  await eventually(
    async () => (await lab.t.host.api.devices({})).map((d) => d.state),
    (s) => s.includes('device'),
    20_000,
  );
}, 60_000);
afterAll(async () => {
  if (phone) {
    await disconnectFromAdb(phone.serial).catch(() => undefined);
    await phone.close();
  }
  delete process.env.ANDROID_ADB_SERVER_PORT;
  await lab?.dispose();
});

describe('turning host terminals on', () => {
  it('is the person’s alone: an MCP token cannot change the setting, and the agent is told who can', async () => {
    const refused = await fetch(`${new URL(lab.t.host.address.ui).origin}/api/rpc/updateSettings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${lab.t.host.token}` },
      body: JSON.stringify({ changes: { terminalHostEnabled: true } }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(BEARER_REFUSED);
    expect((await lab.t.host.api.getSettings({})).settings.terminalHostEnabled).toBeUndefined();
    const r = await lab.call('terminal.create', { backend: 'host' });
    expect(r.data).toMatchObject({ code: 'UNSUPPORTED', data: { setting: 'terminalHostEnabled' } });
    expect(r.text).toContain('ask the user to turn on "terminalHostEnabled"');
  });

  it('closes open host terminals when the person turns it off again', async () => {
    await lab.person.rpc('updateSettings', { changes: { terminalHostEnabled: true } });
    const id = (await lab.call('terminal.create', { backend: 'host' })).data.id as string;
    await lab.person.rpc('updateSettings', { changes: { terminalHostEnabled: false } });
    await eventually(
      async () => (await lab.t.host.api.terminals({})).some((t) => t.id === id),
      (open) => !open,
    );
    expect((await lab.call('terminal.observe', { id })).data.code).toBe('NOT_FOUND');
  });
});

describe('a host terminal', () => {
  let id: string;
  beforeAll(async () => {
    await lab.person.rpc('updateSettings', { changes: { terminalHostEnabled: true } });
    id = (await lab.call('terminal.create', { backend: 'host' })).data.id as string;
  });

  it(
    'lets plain text reach the shell’s prompt, and asks ' + 'before the Enter that would run it; a denial runs nothing',
    async () => {
      expect((await lab.call('terminal.write', { id, data: 'touch pwned-by-write' })).ok).toBe(true);
      expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
      const enter = lab.call('terminal.write', { id, data: '{Enter}' });
      const card = await lab.answerNext('deny', 'not that');
      expect(card).toMatchObject({ toolId: 'terminal.write', risk: 'HIGH', requester: { kind: 'mcp' } });
      expect(card.args).toMatchObject({ terminal: id, backend: 'host', keys: '{Enter}' });
      expect((card.args as { screenNow: string }).screenNow).toContain('touch pwned-by-write');
      const r = await enter;
      expect(r.data).toMatchObject({
        code: 'PERMISSION_DENIED',
        data: { gate: 'terminal', decision: 'deny', reason: 'not that' },
      });
      expect(r.text).toContain('The user denied it');
      await new Promise((res) => setTimeout(res, 300));
      expect(existsSync(join(lab.workspace, 'pwned-by-write'))).toBe(false);
    },
  );

  it('asks before a line end hidden in text, a control key, Tab, or an escape sequence', async () => {
    for (const data of ['ls\r', 'x\n', '{Ctrl-O}', '{Tab}', '\u001b[A', '{Esc}']) {
      const w = lab.call('terminal.write', { id, data });
      const card = await lab.answerNext('deny');
      expect([data, card.toolId]).toEqual([data, 'terminal.write']);
      expect((await w).data.code).toBe('PERMISSION_DENIED');
    }
  });

  it('asks before any key while a program other than the shell is in front', async () => {
    const clear = lab.call('terminal.write', { id, data: '{Ctrl-U}' });
    await lab.answerNext('approve_once');
    await clear;
    const start = lab.call('terminal.write', { id, data: 'cat{Enter}' });
    await lab.answerNext('approve_once');
    await start;
    await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data.foreground,
      (fg) => fg === 'cat',
    );
    const key = lab.call('terminal.write', { id, data: 'q' });
    const card = await lab.answerNext('deny');
    expect(card.args).toMatchObject({ keys: 'q', inFront: 'cat' });
    expect((await key).data.code).toBe('PERMISSION_DENIED');
    expect((await lab.call('terminal.signal', { id, signal: 'INT' })).ok).toBe(true);
    await eventually(
      async () => (await lab.call('terminal.snapshot', { id })).data.foreground,
      (fg) => fg !== 'cat',
    );
  });

  it('refuses a dangerous command outright and waits for the person on one that changes things', async () => {
    for (const command of ['rm -rf /', 'reboot', 'echo ok; rm -rf /etc']) {
      const r = await lab.call('terminal.run', { id, command });
      expect([command, r.data.code]).toEqual([command, 'PERMISSION_DENIED']);
      expect(r.text).toContain('Refused to run this command');
    }
    const touching = lab.call('terminal.run', { id, command: 'touch pwned-by-run' });
    const card = await lab.answerNext('deny');
    expect(card.args).toMatchObject({ terminal: id, command: 'touch pwned-by-run' });
    expect((await touching).data.code).toBe('PERMISSION_DENIED');
    expect(existsSync(join(lab.workspace, 'pwned-by-run'))).toBe(false);
  });

  it('asks before a read that names a file: the UI link key in host.json is not one `cat` away', async () => {
    const hostJson = join(lab.t.dataDir, 'host.json');
    const key = (JSON.parse(readFileSync(hostJson, 'utf8')) as { uiLinkKey: string }).uiLinkKey;
    for (const command of [
      'cat ../host.json',
      `cat ${hostJson}`,
      'cd ..; cat host.json',
      'cat ~/.config/Toolgate/host.json',
    ]) {
      const reading = lab.call('terminal.run', { id, command });
      const card = await lab.answerNext('deny');
      expect([command, (card.args as { reasons: string[] }).reasons.join(' ')]).toEqual([
        command,
        expect.stringContaining('secrets'),
      ]);
      const r = await reading;
      expect([command, r.data.code]).toEqual([command, 'PERMISSION_DENIED']);
      expect(r.text).not.toContain(key);
    }
    const plain = await lab.call('terminal.run', { id, command: 'pwd' });
    expect(plain.data).toMatchObject({ output: lab.workspace, verdict: 'read' });
  });

  it('keeps a grant to the session: a batch step is asked too, another session asks again, refusals stay', async () => {
    const batch = lab.call('tool_batch_run', {
      steps: [{ tool: 'terminal.write', args: { id, data: 'true{Enter}' } }],
    });
    const granted = await lab.answerNext('approve_session');
    expect(granted.toolId).toBe('terminal.write');
    // The card said what the session approval covers: this terminal, not the tool everywhere.
    expect(granted.choices.find((c) => c.decision === 'approve_session')?.covers).toBe(
      `every key and command sent to terminal ${id} (commands the gate refuses stay refused), for the rest of ` +
        `session ${granted.sessionId} (client default)`,
    );
    expect((await batch).ok).toBe(true);
    expect((await lab.call('terminal.write', { id, data: 'true{Enter}' })).ok).toBe(true);
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
    expect((await lab.call('terminal.run', { id, command: 'reboot' })).data.code).toBe('PERMISSION_DENIED');

    const second = await connectClient(lab.t.host, 'terminal-agent');
    const w = lab.call('terminal.write', { id, data: 'true{Enter}' }, second);
    const asked = await lab.answerNext('deny');
    expect(asked.sessionId).toMatch(/^default#\d+$/);
    expect(asked.sessionId).not.toBe(granted.sessionId);
    expect((await w).data.code).toBe('PERMISSION_DENIED');
    await second.close();
  });

  it(
    'asks the person even when they start it: an agent’s ' + 'shortcut run from Try it still waits for the write',
    async () => {
      const defined = await lab.call('shortcut_define', {
        id: 'shortcut.tidy_up',
        description: 'Tidies the workspace.',
        params: [],
        steps: [{ tool: 'terminal.write', args: { id, data: 'touch pwned-by-shortcut\r' } }],
      });
      expect(defined.ok, defined.text).toBe(true);
      const started = lab.person.rpc('callTool', { toolId: 'shortcut.tidy_up', args: {} });
      const card = await lab.answerNext('deny');
      expect(card).toMatchObject({ toolId: 'terminal.write', sessionId: 'ui', requester: { kind: 'shortcut' } });
      expect(((await started).body as { ok: boolean }).ok).toBe(false);
      await new Promise((res) => setTimeout(res, 300));
      expect(existsSync(join(lab.workspace, 'pwned-by-shortcut'))).toBe(false);
    },
  );

  it('takes no key from the agent while the person has control, and the person’s keys are theirs', async () => {
    expect((await lab.person.rpc('terminalControl', { id, on: true })).body).toMatchObject({ ok: true });
    for (const [tool, args] of [
      ['terminal.write', { id, data: 'x' }],
      ['terminal.run', { id, command: 'pwd' }],
      ['terminal.signal', { id, signal: 'INT' }],
    ] as const) {
      const r = await lab.call(tool, args);
      expect([tool, r.data.code]).toEqual([tool, 'EXECUTION_FAILED']);
      expect(r.text).toContain('A person has taken control');
    }
    const typed = await lab.person.rpc('terminalInput', { id, data: 'echo from-the-person\r' });
    expect(typed.body).toMatchObject({ ok: true });
    const spans = await lab.t.host.api.listSpans({ toolId: 'terminal.write', limit: 1 });
    expect(spans[0]).toMatchObject({ requesterKind: 'ui', sessionId: 'ui', outcome: 'success' });
    await lab.person.rpc('terminalControl', { id, on: false });
    const refusedInput = await lab.person.rpc('terminalInput', { id, data: 'x' });
    expect(refusedInput.body).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED' } });
  });
});

describe('a phone terminal', () => {
  let id: string;
  beforeAll(async () => {
    id = (await lab.call('terminal.create', { backend: `device:${phone.serial}` })).data.id as string;
  });

  it('asks before any key, since what reads the keys on a phone cannot be known; a denial runs nothing', async () => {
    const before = phone.executedCommands.length;
    for (const data of ['input tap 1 1', '{Enter}']) {
      const w = lab.call('terminal.write', { id, data });
      const card = await lab.answerNext('deny');
      expect(card.args).toMatchObject({ terminal: id, inFront: 'unknown (a phone)' });
      expect((await w).data.code).toBe('PERMISSION_DENIED');
    }
    await new Promise((res) => setTimeout(res, 300));
    expect(phone.executedCommands.slice(before)).toEqual([]);
  });

  it('runs a read-only command, asks before one that changes the phone, and refuses a dangerous one', async () => {
    expect((await lab.call('terminal.run', { id, command: 'getprop ro.product.model' })).data.output).toBe('Pixel 8');
    const before = phone.executedCommands.length;
    const tap = lab.call('terminal.run', { id, command: 'input tap 10 10' });
    expect((await lab.answerNext('deny')).args).toMatchObject({ command: 'input tap 10 10' });
    expect((await tap).data.code).toBe('PERMISSION_DENIED');
    expect((await lab.call('terminal.run', { id, command: 'reboot' })).data.code).toBe('PERMISSION_DENIED');
    expect(phone.executedCommands.slice(before).map((a) => a[0])).toEqual([]);
    expect(phone.phone.rebootRequests).toEqual([]);
  });
});
