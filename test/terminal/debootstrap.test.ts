/**
 * Rule: terminal.linux_bootstrap makes a real Debian system with the real debootstrap (variant
 * minbase) from the mirror and release this machine's apt uses, after the person approves; the
 * sandbox then runs it under bubblewrap, its packages come and go through apt inside it (each
 * install and removal approved), and inside it the TIOCSTI ioctl, which types into a terminal from
 * within, is refused, as is creating a set-user-ID file.
 *
 * The bootstrap takes minutes, so its data dir is a fixed folder in the system's temp dir, keyed by
 * the release: a rerun finds the finished system and terminal.linux_bootstrap answers at once, as it
 * does for a person. Delete the folder to bootstrap again.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAptSource } from '../../tools/terminal/sandbox/apt-sources';
import { type TerminalLab, startTerminalLab } from './support/terminal-lab';

const source = readAptSource();
const suite = source?.suite ?? 'bookworm';
const CACHE = join(tmpdir(), `toolgate-test-debootstrap-${suite}`);
const MINUTES = 60_000;

let lab: TerminalLab;
let id: string;

beforeAll(async () => {
  if (!source)
    throw new Error('This test bootstraps from the mirror apt uses; /etc/apt/sources.list(.d) names no Debian mirror.');
  lab = await startTerminalLab({ host: { dataDir: CACHE, approvalTimeoutMs: 60_000 }, keepDataDir: true });
}, 2 * MINUTES);
afterAll(async () => {
  if (id) await lab?.call('terminal.close', { id });
  await lab?.dispose();
});

describe('a Debian system made by debootstrap', () => {
  it(
    'is bootstrapped from the mirror this machine uses, after the person approves (or found from an earlier run)',
    async () => {
      const started = Date.now();
      const bootstrap = lab.call('terminal.linux_bootstrap', {});
      const status = (await lab.call('terminal.linux_status')).data as {
        systems: Array<{ name: string; state: string }>;
      };
      if (!status.systems.some((s) => s.name === `debian-${suite}` && s.state === 'ready')) {
        const card = await lab.answerNext('approve_once');
        expect(card.title).toBe(
          `Create the sandbox system 'debian-${suite}': debootstrap ${suite} (minbase) from ${source!.mirror}`,
        );
      }
      const r = await bootstrap;
      expect(r.ok, r.text).toBe(true);
      expect(r.data).toMatchObject({ name: `debian-${suite}` });
      console.log(
        `linux_bootstrap: ${r.data.already ? 'found from an earlier run' : 'bootstrapped'} in ` +
          `${Math.round((Date.now() - started) / 1000)} s; ${r.text}`,
      );
      if (!r.data.already)
        expect(r.data).toMatchObject({
          packageLists: true,
          source: { kind: 'debootstrap', suite, variant: 'minbase' },
        });
    },
    20 * MINUTES,
  );

  it('is described by terminal.linux_status: Debian, its version, size and packages', async () => {
    const r = await lab.call('terminal.linux_status');
    const system = (r.data.systems as Array<Record<string, unknown>>).find((s) => s.name === `debian-${suite}`);
    expect(system).toMatchObject({ state: 'ready', id: 'debian', codename: suite, default: true });
    expect(system?.distro).toMatch(/^Debian GNU\/Linux/);
    expect(system?.sizeBytes).toBeGreaterThan(100 * 1024 * 1024);
    expect(system?.packages).toBeGreaterThan(80);
  });

  it('runs under bubblewrap with bash, sees the workspace, and refuses TIOCSTI inside', async () => {
    const t = await lab.call('terminal.create', {});
    expect(t.data.where).toBe(`bubblewrap sandbox, root file system debian-${suite}`);
    id = t.data.id as string;
    const r = await lab.call('terminal.run', {
      id,
      command: 'echo $0; . /etc/os-release; echo $VERSION_CODENAME; pwd',
    });
    expect(r.data.output).toBe(`/bin/bash\n${suite}\n/workspace`);
    const inject = await lab.call('terminal.run', {
      id,
      command: `perl -e '$c = "x"; print ioctl(STDIN, 0x5412, $c) ? "typed into the terminal" : "refused: $!"'`,
    });
    expect(inject.data.output).toBe('refused: Operation not permitted');
    const setuid = await lab.call('terminal.run', {
      id,
      command:
        `perl -MFcntl -e 'print sysopen(F, "/workspace/setuid-probe", O_CREAT|O_WRONLY, 04755) ? "created" ` +
        `: "refused: $!"'`,
    });
    expect(setuid.data.output).toBe('refused: Operation not permitted');
  });

  it(
    'searches, installs and removes packages through apt inside it, each change approved',
    async () => {
      const found = await lab.call('terminal.linux_packages', { action: 'search', names: ['hello'] });
      expect((found.data.results as Array<{ name: string }>).map((p) => p.name)).toContain('hello');
      const installing = lab.call('terminal.linux_packages', { action: 'install', names: ['hello'] });
      expect((await lab.answerNext('approve_once')).title).toBe(`Install in the sandbox (debian-${suite}): hello`);
      const installed = await installing;
      expect(installed.ok, installed.text).toBe(true);
      expect((await lab.call('terminal.run', { id, command: 'hello' })).data.output).toBe('Hello, world!');
      expect((await lab.call('terminal.linux_packages', { action: 'list', names: ['hello'] })).data.packages).toEqual([
        expect.objectContaining({ name: 'hello' }),
      ]);
      const removing = lab.call('terminal.linux_packages', { action: 'remove', names: ['hello'] });
      await lab.answerNext('approve_once');
      expect((await removing).ok).toBe(true);
      expect((await lab.call('terminal.run', { id, command: 'hello' })).data.exitCode).toBe(127);
    },
    10 * MINUTES,
  );
});
