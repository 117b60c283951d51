/**
 * Rule: the Ubuntu tools take their source from the person's setting terminalUbuntuSource. With
 * none, or one that cannot be used (an unreachable mirror, a tarball that is not there), they answer
 * UNSUPPORTED naming the setting, and ask no one. With one, terminal.ubuntu.ensure is idempotent:
 * a missing system is installed after the person approves, a ready one answers at once without
 * asking, a half-made one is repaired. (The source here is a rootfs tarball the person named; this
 * machine reaches no Ubuntu mirror.)
 */
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RootfsStore } from '../../tools/terminal';
import { type TerminalLab, busyboxTarball, startTerminalLab } from './support/terminal-lab';

let lab: TerminalLab;
let tarball: string;

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  lab = await startTerminalLab();
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-ubuntu-src-'));
  tarball = busyboxTarball(dir, join(dir, 'ubuntu-rootfs.tar.gz'));
});
afterAll(async () => lab?.dispose());

const setSource = (value: string | null) =>
  lab.person.rpc('updateSettings', { changes: { terminalUbuntuSource: value } });

describe('without a usable Ubuntu source', () => {
  it('says no source is configured, naming the setting, and asks no one', async () => {
    const status = await lab.call('terminal.ubuntu.status');
    expect(status.data).toMatchObject({ systems: [], source: { kind: 'none', setting: 'terminalUbuntuSource' } });
    expect(status.text).toContain('terminalUbuntuSource');
    for (const tool of ['terminal.ubuntu_install', 'terminal.ubuntu.ensure']) {
      const r = await lab.call(tool, { release: 'jammy' });
      expect([tool, r.data.code, r.data.data]).toEqual([tool, 'UNSUPPORTED', { setting: 'terminalUbuntuSource' }]);
      expect(r.text).toContain('"terminalUbuntuSource"');
    }
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });

  it('says a mirror that cannot be used, or a missing tarball, cannot be used, naming the setting', async () => {
    for (const value of [`http://127.0.0.1:${await closedPort()}/ubuntu`, '/nonexistent/ubuntu.tar.gz']) {
      expect((await setSource(value)).status).toBe(200);
      const r = await lab.call('terminal.ubuntu.ensure', { release: 'jammy' });
      expect([value, r.data.code, r.data.data]).toEqual([value, 'UNSUPPORTED', { setting: 'terminalUbuntuSource' }]);
    }
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });

  it('refuses a release name that is not one', async () => {
    const r = await lab.call('terminal.ubuntu_install', { release: 'Jammy Jellyfish' });
    expect(r.data).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['release'] } });
  });
});

describe('with the person’s tarball as the source', () => {
  beforeAll(async () => {
    await setSource(tarball);
  });

  it('installs a missing system after the person approves', async () => {
    const ensuring = lab.call('terminal.ubuntu.ensure', { release: 'jammy' });
    const card = await lab.answerNext('approve_once');
    expect(card.title).toBe(`Install the sandbox system 'ubuntu-jammy' from ${tarball}`);
    const r = await ensuring;
    expect(r.ok, r.text).toBe(true);
    expect(r.data).toEqual({ name: 'ubuntu-jammy', ready: true, changed: true, repaired: false });
    const t = await lab.call('terminal.create', { rootfs: 'ubuntu-jammy' });
    expect((await lab.call('terminal.run', { id: t.data.id, command: 'echo inside' })).data.output).toBe('inside');
    await lab.call('terminal.close', { id: t.data.id });
  });

  it('answers at once, asking no one, when the system is ready', async () => {
    const r = await lab.call('terminal.ubuntu.ensure', { release: 'jammy' });
    expect(r.data).toEqual({ name: 'ubuntu-jammy', ready: true, changed: false, repaired: false });
    expect((await lab.call('terminal.ubuntu_install', { release: 'jammy' })).data).toMatchObject({ already: true });
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });

  it('repairs a half-made system', async () => {
    new RootfsStore(lab.t.dataDir).begin('ubuntu-jammy', { kind: 'tarball', path: tarball });
    expect((await lab.call('terminal.ubuntu.status')).data.systems).toEqual([
      expect.objectContaining({ name: 'ubuntu-jammy', state: 'half-made' }),
    ]);
    const ensuring = lab.call('terminal.ubuntu.ensure', { release: 'jammy' });
    expect((await lab.answerNext('approve_once')).title).toContain("Repair the sandbox system 'ubuntu-jammy'");
    expect((await ensuring).data).toEqual({ name: 'ubuntu-jammy', ready: true, changed: true, repaired: true });
    const status = await lab.call('terminal.ubuntu.status');
    expect(status.data).toMatchObject({
      systems: [expect.objectContaining({ name: 'ubuntu-jammy', release: 'jammy', state: 'ready' })],
      source: { kind: 'tarball', path: tarball },
    });
  });
});
