/**
 * Rule: an MCP host that only speaks stdio reaches the same tools through the bridge command the
 * host advertises, which runs from the built bundle and forwards to the running host with the
 * token. The bridge ends when its stdin ends or a signal asks, and leaves no process behind; an MCP
 * host that starts and closes it counts on that. Without a running host it says how to start one;
 * without a build it runs the source through tsx and says so.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build';
import { openPersonSession } from '../support/person-session';
import { textOf } from './harness';
import { type ServedHost, serve } from './process-harness';

const ROOT = resolve(__dirname, '../..');
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-host', version: '1.0.0' } },
})}\n`;

/** The parent pid of a live process, from /proc/PID/stat (undefined once it is gone or a zombie). */
function parentOf(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: state, ppid, …
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return state === 'Z' ? undefined : Number(ppid);
}

/** Every live process below `root`, found by walking /proc. */
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = parentOf(Number(name));
    if (ppid !== undefined) parents.set(Number(name), ppid);
  }
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const [pid, ppid] of parents)
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        frontier.push(pid);
      }
  }
  return found;
}

const alive = (pid: number) => parentOf(pid) !== undefined;

/** Waits until none of `pids` lives; returns those still alive after 15 s (an empty list is the pass). */
async function survivorsOf(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 150 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

interface Advertised {
  command: string;
  args: string[];
}

interface Bridge {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first line the bridge writes to stdout (its answer to initialize). */
  firstLine: Promise<string>;
}

function startBridge(advertised: Advertised, stdin: 'pipe' | 'ignore' = 'pipe'): Bridge {
  const child = spawn(advertised.command, advertised.args, {
    env: { ...process.env, TOOLGATE_QUIET: '1' },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const firstLine = new Promise<string>((r) =>
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) r(out.split('\n')[0] ?? '');
    }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  // A bridge that wrongly stays up is ended, so a test fails on its exit rather than hanging.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 30_000);
  void exited.then(() => clearTimeout(stuck));
  return { child, stderr: () => err, exited, firstLine };
}

const dir = mkdtempSync(join(tmpdir(), 'toolgate-bridge-'));
let served: ServedHost;
let advertised: Advertised;
beforeAll(async () => {
  await ensureBuilt();
  served = await serve(dir);
  // What the Overview page shows a person for a stdio client: read through the person's session.
  const person = await openPersonSession(served.ready.uiLink);
  const info = (await person.rpc('info')).body as { stdioBridge: Advertised };
  advertised = info.stdioBridge;
}, 180_000);
afterAll(async () => {
  served?.child.kill('SIGTERM');
  await served?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe('the stdio bridge', () => {
  it('is advertised as node with the absolute path of bin/toolgate.cjs and this data dir', () => {
    expect(advertised).toEqual({
      command: 'node',
      args: [join(ROOT, 'bin', 'toolgate.cjs'), 'mcp-stdio', '--data-dir', dir],
    });
  });

  it('lists and calls the host’s tools over stdio from the bundle; closing the client leaves no process', async () => {
    const transport = new StdioClientTransport({
      command: advertised.command,
      args: advertised.args,
      env: { ...process.env, TOOLGATE_QUIET: '1' } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'stdio-host', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('json_transform');
    const ok = await client.callTool({
      name: 'json_transform',
      arguments: { data: [1, 2], pipeline: [{ op: 'limit', count: 1 }] },
    });
    expect(ok.isError).toBeFalsy();
    const bad = await client.callTool({ name: 'json_transform', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('INVALID_ARGUMENT');
    const pid = transport.pid ?? 0;
    expect(alive(pid)).toBe(true);
    const started = [pid, ...descendantsOf(pid)];
    await client.close();
    expect(await survivorsOf(started)).toEqual([]);
    expect(stderr).not.toContain('is not built');
  });

  it('exits 0 when its stdin closes', async () => {
    const bridge = startBridge(advertised);
    bridge.child.stdin?.write(INITIALIZE);
    expect(JSON.parse(await bridge.firstLine)).toMatchObject({ id: 1, result: { serverInfo: { name: 'toolgate' } } });
    const started = [bridge.child.pid ?? 0, ...descendantsOf(bridge.child.pid ?? 0)];
    bridge.child.stdin?.end();
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    expect(await survivorsOf(started)).toEqual([]);
  });

  it('exits 0 with stdin at end of file from the start (< /dev/null)', async () => {
    const bridge = startBridge(advertised, 'ignore');
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    expect(bridge.stderr()).toBe('');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 on %s and leaves no process it started', async (signal) => {
    const bridge = startBridge(advertised);
    bridge.child.stdin?.write(INITIALIZE);
    await bridge.firstLine;
    const started = [bridge.child.pid ?? 0, ...descendantsOf(bridge.child.pid ?? 0)];
    bridge.child.kill(signal);
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    expect(await survivorsOf(started)).toEqual([]);
  });

  it('ends when a signal ends the shell that started it, as `npm run mcp-stdio` does (npm → sh → node)', async () => {
    // The MCP host keeps its end of the bridge's stdin open whatever happens to npm and the shell,
    // so the bridge's stdin comes from a FIFO this test holds, not from the shell's own pipe.
    const fifo = join(dir, 'bridge-stdin');
    execFileSync('mkfifo', [fifo]);
    const held = openSync(fifo, 'r+');
    const quoted = advertised.args.map((a) => `'${a}'`).join(' ');
    // `; exit $?` keeps the shell as the bridge's parent instead of letting it exec the bridge.
    const shell = spawn('/bin/sh', ['-c', `${advertised.command} ${quoted}; exit $?`], {
      env: { ...process.env, TOOLGATE_QUIET: '1' },
      stdio: [held, 'pipe', 'pipe'],
    });
    writeSync(held, INITIALIZE);
    await new Promise<void>((r) => shell.stdout?.once('data', () => r()));
    const started = descendantsOf(shell.pid ?? 0);
    expect(started).toHaveLength(1);
    shell.kill('SIGTERM');
    await new Promise((r) => shell.once('exit', r));
    const survivors = await survivorsOf(started);
    for (const pid of survivors) process.kill(pid, 'SIGKILL');
    closeSync(held);
    expect(survivors).toEqual([]);
  });

  it('explains how to start a host when none is running', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'toolgate-nohost-'));
    const bridge = startBridge({
      command: process.execPath,
      args: [advertised.args[0] ?? '', 'mcp-stdio', '--data-dir', empty],
    });
    expect((await bridge.exited).code).toBe(2);
    expect(bridge.stderr()).toContain(`no Toolgate host is running for ${empty}`);
    expect(bridge.stderr()).toContain(`npm run serve -- --data-dir ${empty}`);
    rmSync(empty, { recursive: true, force: true });
  });

  it('runs the TypeScript source through tsx where the bundle is not built, and says so on stderr', async () => {
    // A checkout without out/: the same bin/toolgate.cjs beside the same sources and dependencies.
    const checkout = mkdtempSync(join(tmpdir(), 'toolgate-unbuilt-'));
    mkdirSync(join(checkout, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'toolgate.cjs'), join(checkout, 'bin', 'toolgate.cjs'));
    for (const d of ['tools', 'shared', 'node_modules', 'package.json', 'tsconfig.json'])
      symlinkSync(join(ROOT, d), join(checkout, d));
    expect(existsSync(join(checkout, 'out'))).toBe(false);
    const empty = mkdtempSync(join(tmpdir(), 'toolgate-nohost-'));
    const bridge = startBridge({
      command: process.execPath,
      args: [join(checkout, 'bin', 'toolgate.cjs'), 'mcp-stdio', '--data-dir', empty],
    });
    expect((await bridge.exited).code).toBe(2);
    expect(bridge.stderr()).toContain(`${join(checkout, 'out', 'main', 'cli.js')} is not built`);
    expect(bridge.stderr()).toContain('running the TypeScript source through tsx');
    expect(bridge.stderr()).toContain(`no Toolgate host is running for ${empty}`);
    rmSync(empty, { recursive: true, force: true });
    rmSync(checkout, { recursive: true, force: true });
  });
});
