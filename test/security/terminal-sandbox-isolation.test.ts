/**
 * Rule: a sandbox terminal sees its root file system and the workspace (at /workspace), nothing else
 * of this machine, and never Toolgate's data dir (token, host.json with the UI link key, the
 * database). Tried from inside, over a real MCP client: /proc/1/root and other processes' roots,
 * `..` past the root, links planted in the workspace by the host and made inside, the mount table,
 * the environment, the process list. Nor can it leave a set-user-ID program in the workspace for
 * someone outside to run. With the network off there is no connection out, not even to this
 * machine's loopback; turning it on takes the person's approval and reaches the host.
 */
import { existsSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TerminalLab, startTerminalLab } from '../terminal/support/terminal-lab';

let lab: TerminalLab;
let id: string;
let token: string;
let linkKey: string;

beforeAll(async () => {
  process.env.TOOLGATE_SECRET_PROBE = 'host-secret-value';
  lab = await startTerminalLab({ busybox: true });
  token = lab.t.host.token;
  linkKey = (JSON.parse(readFileSync(join(lab.t.dataDir, 'host.json'), 'utf8')) as { uiLinkKey: string }).uiLinkKey;
  // Links the host side plants in the workspace, pointing at the data dir and at the host's root.
  symlinkSync(join(lab.t.dataDir, 'token'), join(lab.workspace, 'token-link'));
  symlinkSync(lab.t.dataDir, join(lab.workspace, 'data-link'));
  symlinkSync('/', join(lab.workspace, 'root-link'));
  id = (await lab.call('terminal.create', {})).data.id as string;
}, 60_000);
afterAll(async () => {
  delete process.env.TOOLGATE_SECRET_PROBE;
  await lab?.dispose();
});

const run = async (command: string) => {
  const r = await lab.call('terminal.run', { id, command, timeoutMs: 30_000 });
  expect(r.ok, r.text).toBe(true);
  return r.data as { output: string; exitCode: number };
};

function expectNoSecret(text: string): void {
  expect(text).not.toContain(token);
  expect(text).not.toContain(linkKey);
  expect(text).not.toContain('host-secret-value');
}

describe('what a sandbox terminal can see', () => {
  it('finds no file of the data dir anywhere it can reach', async () => {
    const dataDir = lab.t.dataDir;
    const r = await run(
      `cat ${dataDir}/token ${dataDir}/host.json; ls ${dataDir}; find / -xdev \\( -name host.json -o -name token ` +
        `-o -name 'toolgate.db*' \\) 2>/dev/null; echo end`,
    );
    expect(r.output).toMatch(/No such file or directory/);
    expect(r.output.trim().split('\n').pop()).toBe('end');
    expect(r.output).not.toMatch(/\/host\.json$|\/toolgate\.db/m);
    expectNoSecret(r.output);
  });

  it('reaches only its own root through /proc/1/root, /proc/self/root and every process’s root', async () => {
    const r = await run(
      `ls /proc/1/root; echo --; ls /proc/self/root/proc/1/root; echo --; for p in /proc/[0-9]*; do readlink ` +
        `$p/root; done | sort -u; echo --; cat /proc/1/root${lab.t.dataDir}/token`,
    );
    const [first, second, roots, last] = r.output.split('\n--\n');
    const expected = ['bin', 'dev', 'etc', 'proc', 'root', 'run', 'tmp', 'workspace'];
    expect(first!.split(/\s+/).filter(Boolean).sort()).toEqual(expected);
    expect(second!.split(/\s+/).filter(Boolean).sort()).toEqual(expected);
    expect(roots!.trim()).toBe('/');
    expect(last).toMatch(/No such file or directory/);
    expectNoSecret(r.output);
  });

  it('cannot climb above its root with `..`', async () => {
    const r = await run('cd /workspace/../../../..; pwd; ls; ls /workspace/../../..');
    const lines = r.output.split('\n');
    expect(lines[0]).toBe('/');
    expect(r.output).not.toContain('toolgate');
    expect(r.output).not.toMatch(/\bhome\b|\bvar\b|\busr\b/);
  });

  it('resolves links in the workspace inside the sandbox, so none leads out', async () => {
    const r = await run(
      'cat /workspace/token-link; ls /workspace/data-link; ls /workspace/root-link/; ln -s /proc/1/root ' +
        '/workspace/made-inside; ls /workspace/made-inside/',
    );
    expect(r.output).toMatch(/token-link'?: No such file or directory/);
    expect(r.output).toMatch(/data-link'?: No such file or directory/);
    expect(r.output).not.toMatch(/\busr\b|\bhome\b|\bvar\b/);
    expectNoSecret(r.output);
  });

  it(
    'has exactly its own mounts: the root file system, /workspace, its /proc, /dev, /tmp, /run, and its folder of ' +
      'output pipes read-only',
    async () => {
      const r = await run("cat /proc/self/mountinfo | awk '{print $5}' | sort -u");
      const points = r.output.split('\n');
      expect(points.filter((p) => !p.startsWith('/dev') && !p.startsWith('/proc'))).toEqual([
        '/',
        '/run',
        '/run/toolgate-output',
        '/tmp',
        '/workspace',
      ]);
      const pipes = await run('awk \'$5 == "/run/toolgate-output" {print $6}\' /proc/self/mountinfo');
      expect(pipes.output.split(',')).toContain('ro');
      const mounted = await run('mount -t tmpfs none /tmp 2>&1; mount --bind / /workspace/x 2>&1; echo $?');
      expect(mounted.output).toMatch(/permission denied|Operation not permitted/i);
    },
  );

  it('cannot leave a set-user-ID or set-group-ID program in the workspace', async () => {
    const r = await run(
      'cp /bin/busybox /workspace/rootshell; chmod 4755 /workspace/rootshell; echo "chmod $?"; chmod g+s ' +
        '/workspace/rootshell; echo "g+s $?"; install -m 6755 /bin/busybox /workspace/installed; echo "install $?"',
    );
    expect(r.output).toMatch(/chmod [1-9]/);
    expect(r.output).toMatch(/g\+s [1-9]/);
    expect(r.output).toMatch(/Operation not permitted/);
    for (const name of ['rootshell', 'installed']) {
      const path = join(lab.workspace, name);
      if (existsSync(path)) expect([name, statSync(path).mode & 0o6000]).toEqual([name, 0]);
    }
    expect(statSync(join(lab.workspace, 'rootshell')).mode & 0o777).toBe(0o755);
  });

  it('sees no host process and none of the host’s environment', async () => {
    const ps = await run('ps -o pid,comm');
    const commands = ps.output
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/)[1]);
    expect(new Set(commands)).toEqual(new Set(['bwrap', 'sh', 'ps']));
    const env = await run('env');
    expectNoSecret(env.output);
    expect(env.output).not.toContain('TOOLGATE_TOKEN');
    const names = new Set(env.output.split('\n').map((l) => l.split('=')[0]));
    const allowed = new Set(['HOME', 'LANG', 'OLDPWD', 'PATH', 'PWD', 'SHLVL', 'TERM', 'TOOLGATE_TERMINAL', '_']);
    expect([...names].filter((n) => !allowed.has(n!))).toEqual([]);
    expect(names.has('PATH') && names.has('TOOLGATE_TERMINAL')).toBe(true);
  });
});

describe('the sandbox network', () => {
  let server: ReturnType<typeof createServer>;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((s) => {
      connections++;
      s.end('hello from the host\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('is off: no connection out, not to this machine’s loopback, not to the Toolgate host', async () => {
    const hostPort = new URL(lab.t.host.address.mcp).port;
    const r = await run(
      `ip -o addr | awk '{print $2}' | sort -u; echo --; nc -w 2 127.0.0.1 ${port} </dev/null; echo "nc $?"; wget ` +
        `-q -T 2 -O - http://127.0.0.1:${hostPort}/mcp 2>&1; echo "wget $?"; wget -q -T 2 -O - ` +
        `http://deb.debian.org/ 2>&1; echo "dns $?"`,
    );
    const [ifaces, rest] = r.output.split('\n--\n');
    expect(ifaces!.trim()).toBe('lo');
    expect(rest).toMatch(/nc [1-9]/);
    expect(rest).toMatch(/wget [1-9]/);
    expect(rest).toMatch(/dns [1-9]/);
    expect(rest).not.toContain('hello from the host');
    expect(connections).toBe(0);
    expect((await lab.call('terminal.linux_network', { action: 'status' })).data).toMatchObject({ network: 'off' });
  });

  it('turns on only with the person’s approval, for terminals opened afterwards', async () => {
    const denied = lab.call('terminal.linux_network', { action: 'on' });
    expect((await lab.answerNext('deny')).title).toBe('Give sandbox terminals the network');
    expect((await denied).data).toMatchObject({ code: 'PERMISSION_DENIED' });
    const approved = lab.call('terminal.linux_network', { action: 'on' });
    await lab.answerNext('approve_once');
    expect((await approved).data).toMatchObject({ network: 'on', open: [{ id, network: false }] });
    const still = await run(`nc -w 2 127.0.0.1 ${port} </dev/null; echo "nc $?"`);
    expect(still.output).not.toContain('hello from the host');
    const online = (await lab.call('terminal.create', {})).data;
    expect(online.network).toBe(true);
    const r = await lab.call('terminal.run', { id: online.id, command: `nc -w 2 127.0.0.1 ${port} </dev/null` });
    expect(r.data.output).toBe('hello from the host');
    expect(connections).toBe(1);
    await lab.call('terminal.linux_network', { action: 'off' });
    const offline = (await lab.call('terminal.create', {})).data;
    expect(offline.network).toBe(false);
    for (const t of [online, offline]) await lab.call('terminal.close', { id: t.id });
  });
});
