/**
 * Rule: the sandbox's root file system is made by terminal.linux_bootstrap, here from a rootfs
 * tarball the person put in the workspace (debootstrap is in debootstrap.test.ts): only after the
 * person approves, only from inside the workspace, answered at once when already there, redone
 * when half-made. Where bubblewrap cannot run, PRoot runs the sandbox and every answer says so and
 * why; where neither can, the sandbox is unavailable with the reason.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RootfsStore } from '../../tools/terminal';
import { type TerminalLab, busyboxTarball, startTerminalLab } from './support/terminal-lab';

describe('a root file system from a tarball', () => {
  let lab: TerminalLab;
  beforeAll(async () => {
    lab = await startTerminalLab();
    busyboxTarball(mkdtempSync(join(tmpdir(), 'toolgate-tree-')), join(lab.workspace, 'tiny-rootfs.tar.gz'));
  });
  afterAll(async () => lab?.dispose());

  it('is made only after the person approves; a denial makes nothing', async () => {
    const denied = lab.call('terminal.linux_bootstrap', { from: 'tiny-rootfs.tar.gz' });
    const card = await lab.answerNext('deny');
    expect(card.title).toBe("Create the sandbox system 'tiny-rootfs' from tiny-rootfs.tar.gz");
    expect((await denied).data).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(existsSync(join(lab.t.dataDir, 'terminal', 'rootfs', 'tiny-rootfs'))).toBe(false);

    const made = lab.call('terminal.linux_bootstrap', { from: 'tiny-rootfs.tar.gz' });
    await lab.answerNext('approve_once');
    const r = await made;
    expect(r.ok, r.text).toBe(true);
    expect(r.data).toMatchObject({ name: 'tiny-rootfs', already: false, source: { kind: 'tarball' } });
    expect(r.data.sizeBytes).toBeGreaterThan(1_000_000);
    const status = await lab.call('terminal.linux_status');
    expect(status.data).toMatchObject({
      present: true,
      systems: [expect.objectContaining({ name: 'tiny-rootfs', state: 'ready', default: true })],
    });
    const t = await lab.call('terminal.create', {});
    expect((await lab.call('terminal.run', { id: t.data.id, command: 'busybox | head -1' })).data.output).toMatch(
      /^BusyBox v/,
    );
    await lab.call('terminal.close', { id: t.data.id });
  });

  it('answers at once, asking no one, when it is already there', async () => {
    const r = await lab.call('terminal.linux_bootstrap', { from: 'tiny-rootfs.tar.gz' });
    expect(r.data).toMatchObject({ name: 'tiny-rootfs', already: true });
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });

  it('refuses a tarball outside the workspace without asking', async () => {
    const outside = join(lab.t.dataDir, 'outside.tar');
    writeFileSync(outside, 'not in the workspace');
    for (const from of [outside, '../outside.tar', '/etc/passwd']) {
      const r = await lab.call('terminal.linux_bootstrap', { from, name: 'stolen' });
      expect([from, r.data.code]).toEqual([from, 'PERMISSION_DENIED']);
      expect(r.data.data).toMatchObject({ fields: ['from'] });
    }
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });

  it('says a half-made one is half-made, refuses terminals on it, and makes it again', async () => {
    new RootfsStore(lab.t.dataDir).begin('tiny-rootfs', { kind: 'tarball', path: 'interrupted' });
    const status = await lab.call('terminal.linux_status');
    expect(status.data.systems).toEqual([expect.objectContaining({ name: 'tiny-rootfs', state: 'half-made' })]);
    const t = await lab.call('terminal.create', { rootfs: 'tiny-rootfs' });
    expect(t.data).toMatchObject({ code: 'EXECUTION_FAILED' });
    expect(t.text).toContain('half-made');
    const again = lab.call('terminal.linux_bootstrap', { from: 'tiny-rootfs.tar.gz' });
    expect((await lab.answerNext('approve_once')).args).toMatchObject({ halfMade: true });
    expect((await again).data).toMatchObject({ already: false, name: 'tiny-rootfs' });
    expect((await lab.call('terminal.create', { rootfs: 'tiny-rootfs' })).ok).toBe(true);
  });

  it('lists no packages in a system without dpkg, and says search needs package lists', async () => {
    const list = await lab.call('terminal.linux_packages', { action: 'list' });
    expect(list.data).toMatchObject({ rootfs: 'tiny-rootfs', installed: 0, packages: [] });
    const search = await lab.call('terminal.linux_packages', { action: 'search', names: ['curl'] });
    expect(search.data).toMatchObject({ code: 'EXECUTION_FAILED' });
    expect(search.text).toContain('no package lists');
    const bad = await lab.call('terminal.linux_packages', { action: 'install', names: ['curl; rm -rf /'] });
    expect(bad.data).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['names'] } });
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
  });
});

describe('where bubblewrap cannot run', () => {
  it('runs the sandbox under PRoot, says so and why, never claims the network is off, and runs pipe mode', async () => {
    const lab = await startTerminalLab({
      busybox: true,
      host: { terminal: { runnerPaths: { bwrap: '/nonexistent/bwrap' } } },
    });
    try {
      const backends = await lab.call('terminal.backends');
      const sandbox = (backends.data.backends as Array<Record<string, unknown>>).find((b) => b.backend === 'sandbox');
      expect(sandbox).toMatchObject({ available: true, runner: 'proot', network: 'not isolated' });
      expect(sandbox?.why).toContain('bubblewrap is not installed (/nonexistent/bwrap');
      expect(sandbox?.why).toContain('PRoot is used instead');
      expect(sandbox?.isolation).toContain('not a security boundary');
      const t = await lab.call('terminal.create', {});
      expect(t.data.where).toBe('PRoot sandbox, root file system busybox');
      const r = await lab.call('terminal.run', { id: t.data.id, command: 'pwd; ls /; cat /proc/1/cmdline' });
      const [pwd, listing, proc] = (r.data.output as string).split('\n');
      expect(pwd).toBe('/workspace');
      // `run` holds the terminal's folder of output pipes (PRoot binds it where the tree has none).
      expect(listing!.split(/\s+/).sort()).toEqual(['bin', 'dev', 'etc', 'root', 'run', 'tmp', 'workspace']);
      expect(proc).toMatch(/No such file or directory/);
      const piped = await lab.call('terminal.run', { id: t.data.id, command: 'echo through-the-pipe', output: 'pipe' });
      expect(piped.data).toMatchObject({ output: 'through-the-pipe', exitCode: 0, mode: 'pipe' });
      const net = await lab.call('terminal.linux_network', { action: 'on' });
      expect(net.data).toMatchObject({ code: 'UNSUPPORTED' });
      expect(net.text).toContain('PRoot');
      expect((await lab.call('terminal.linux_status')).data).toMatchObject({
        runner: 'proot',
        network: 'not isolated (PRoot)',
      });
    } finally {
      await lab.dispose();
    }
  });

  it('says the sandbox is unavailable, and why, when neither bubblewrap nor PRoot can run', async () => {
    const lab = await startTerminalLab({
      busybox: true,
      host: { terminal: { runnerPaths: { bwrap: '/nonexistent/bwrap', proot: '/nonexistent/proot' } } },
    });
    try {
      const backends = await lab.call('terminal.backends');
      expect((backends.data.backends as unknown[])[0]).toMatchObject({
        backend: 'sandbox',
        available: false,
        runner: 'none',
      });
      const t = await lab.call('terminal.create', {});
      expect(t.data).toMatchObject({ code: 'UNSUPPORTED' });
      expect(t.text).toContain('PRoot is not installed (/nonexistent/proot');
    } finally {
      await lab.dispose();
    }
  });
});
