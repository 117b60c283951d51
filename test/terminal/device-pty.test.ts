/**
 * Rule: a `device:<serial>` terminal is the phone's interactive shell on its PTY, reached through
 * the real adb server with the shell v2 protocol (`shell,v2,TERM=xterm-256color,pty:`): window
 * size changes are passed on (`stty size` follows a resize), Ctrl-C stops the command in front
 * (`sleep 100`), the prompt comes back, and commands pass shell_execute's gate: read-only ones run,
 * others wait for the person, refused ones never reach the phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VirtualDevice, connectToAdb, disconnectFromAdb, startVirtualDevice } from '../../tools/devices/virtual';
import { freePort } from '../support/private-adb';
import { requireAdb } from '../support/requirements';
import { FRAMING, outputEnd, runViews } from './support/run-views';
import { type TerminalLab, eventually, startTerminalLab } from './support/terminal-lab';

let lab: TerminalLab;
let phone: VirtualDevice;
let id: string;

beforeAll(async () => {
  requireAdb();
  const adbPort = await freePort();
  // The adb CLI the virtual phone's helpers run follows this variable to the host's private server.
  process.env.ANDROID_ADB_SERVER_PORT = String(adbPort);
  lab = await startTerminalLab({ host: { adbPort } });
  phone = await startVirtualDevice();
  await connectToAdb(phone);
  const online = await eventually(
    async () => (await lab.t.host.api.devices({})).map((d) => d.state),
    (states) => states.includes('device'),
    20_000,
  );
  expect(online).toEqual(['device']);
  const created = await lab.call('terminal.create', { backend: `device:${phone.serial}`, cols: 70, rows: 20 });
  expect(created.ok, created.text).toBe(true);
  id = created.data.id as string;
}, 60_000);
afterAll(async () => {
  await lab?.call('terminal.close', { id }).catch(() => undefined);
  if (phone) {
    await disconnectFromAdb(phone.serial).catch(() => undefined);
    await phone.close();
  }
  delete process.env.ANDROID_ADB_SERVER_PORT;
  await lab?.dispose();
});

describe('a phone terminal', () => {
  it('opens the phone’s shell with a PTY, and answers a read-only command without asking', async () => {
    const r = await lab.call('terminal.run', { id, command: 'getprop ro.product.model' });
    expect(r.ok, r.text).toBe(true);
    expect(r.data).toMatchObject({ output: 'Pixel 8', exitCode: 0, verdict: 'read' });
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });

  it(
    'shows the agent’s commands and their output in the scrollback, on the screen and to the ' +
      'model, never the run’s framing',
    async () => {
      const from = await outputEnd(lab, id);
      for (const command of ['echo framed-phone', 'getprop ro.product.model'])
        expect((await lab.call('terminal.run', { id, command })).data.exitCode).toBe(0);
      const views = await runViews(lab, id, from);
      for (const [name, view] of Object.entries(views)) expect([name, FRAMING.test(view)]).toEqual([name, false]);
      expect(views.raw).toContain('echo framed-phone\r\nframed-phone\r\n');
      expect(views.text).toContain('echo framed-phone\nframed-phone\n');
      expect(views.text).toContain('$ getprop ro.product.model\nPixel 8\n');
      expect(views.screen).toContain('$ getprop ro.product.model\nPixel 8\n');
    },
  );

  it('passes window size changes to the phone’s PTY: `stty size` follows a resize', async () => {
    const first = lab.call('terminal.run', { id, command: 'stty size' });
    expect((await lab.answerNext('approve_session')).title).toContain('stty size');
    expect((await first).data.output).toBe('20 70');
    await lab.call('terminal.resize', { id, cols: 101, rows: 33 });
    const again = await lab.call('terminal.run', { id, command: 'stty size' });
    expect(again.ok, again.text).toBe(true);
    expect(again.data.output).toBe('33 101');
  });

  it('stops `sleep 100` with Ctrl-C and shows the prompt again', async () => {
    const sleeping = lab.call('terminal.run', { id, command: 'sleep 100', timeoutMs: 60_000 });
    await expect.poll(() => phone.executedCommands.some((argv) => argv[0] === 'sleep' && argv[1] === '100')).toBe(true);
    expect((await lab.call('terminal.signal', { id, signal: 'INT' })).ok).toBe(true);
    const r = await sleeping;
    expect(r.data.ended).toBe('interrupted');
    const snap = (await lab.call('terminal.snapshot', { id })).data as { lines: string[]; cursor: { y: number } };
    expect(snap.lines[snap.cursor.y]?.trimEnd()).toBe('virtual:/ $');
    expect((await lab.call('terminal.run', { id, command: 'echo back' })).data.output).toBe('back');
  });

  it('refuses a command the gate refuses without it reaching the phone', async () => {
    const before = phone.executedCommands.length;
    const r = await lab.call('terminal.run', { id, command: 'reboot' });
    expect(r.ok).toBe(false);
    expect(r.data).toMatchObject({ code: 'PERMISSION_DENIED', data: { gate: 'shell', decision: 'deny' } });
    expect(r.text).toContain('Refused to run this command');
    expect(phone.executedCommands.slice(before).some((argv) => argv[0] === 'reboot')).toBe(false);
    expect(phone.phone.rebootRequests).toEqual([]);
  });

  it(
    'says pipe mode is unsupported on a phone and why, ' + 'and runs nothing rather than falling back to the PTY',
    async () => {
      const before = phone.executedCommands.length;
      const r = await lab.call('terminal.run', { id, command: 'echo not-run', output: 'pipe' });
      expect(r.ok).toBe(false);
      expect(r.data).toMatchObject({ code: 'UNSUPPORTED', data: { slug: 'terminal-pipe-unsupported' } });
      expect(r.text).toContain(`Pipe mode cannot be used on device:${phone.serial}: the command runs on the phone`);
      expect(r.text).toContain('Run it with output "pty"');
      expect(phone.executedCommands.slice(before).some((argv) => argv.includes('not-run'))).toBe(false);
    },
  );

  it('says TERM cannot be sent to a phone, and HUP ends its shell', async () => {
    const term = await lab.call('terminal.signal', { id, signal: 'TERM' });
    expect(term.data).toMatchObject({ code: 'UNSUPPORTED' });
    const other = await lab.call('terminal.create', { backend: `device:${phone.serial}` });
    const oid = other.data.id as string;
    await lab.call('terminal.signal', { id: oid, signal: 'HUP' });
    await expect.poll(async () => (await lab.call('terminal.observe', { id: oid })).data.state).toBe('exited');
    await lab.call('terminal.close', { id: oid });
  });
});
