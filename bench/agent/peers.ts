/**
 * The MCP servers the agent benchmark drives, each in its own process as an agent runs them, and a
 * client of each: Toolgate's headless host (`toolgate serve`, Streamable HTTP, its bearer token;
 * the built JS, and the TypeScript source through tsx)
 * and mobile-mcp over stdio with its default backend (the mobilecli binary its npm package ships)
 * or its adb backend (MOBILEMCP_LEGACY_ROBOT=1: one `adb` process per command). All of them reach
 * the phone through the same adb server, named by ANDROID_ADB_SERVER_PORT in their environment.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ROOT = join(__dirname, '..', '..');
const MOBILE_MCP = join(ROOT, 'node_modules', '@mobilenext', 'mobile-mcp', 'lib', 'index.js');
/** Where mobile-mcp finds the mobilecli binary (lib/mobilecli.js): the per-platform package mobilecli depends on. */
const MOBILECLI = (() => {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `mobilecli-${os}-${process.arch === 'arm64' ? 'arm64' : 'amd64'}`;
  return join(ROOT, 'node_modules', '@mobilenext', name, name);
})();

export interface Peer {
  readonly name: string;
  readonly client: Client;
  /** How the server was started, for the bench output. */
  readonly how: string;
  /** What the server wrote to stderr (mobile-mcp explains its failures there). */
  stderr(): string;
  /** Toolgate's data dir: its spans are in toolgate.db there once it closed. */
  readonly dataDir?: string;
  close(): Promise<void>;
}

/**
 * Starts `toolgate serve` on a free port with a fresh data dir and connects with its token:
 * `built` runs bin/toolgate.cjs on the electron-vite build (what `npx toolgate serve` runs once
 * `npm run build` made out/main/cli.js), `tsx` the TypeScript source through tsx (`npm run serve`).
 */
export async function startToolgate(env: NodeJS.ProcessEnv, launch: 'built' | 'tsx'): Promise<Peer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-agent-'));
  const built = join(ROOT, 'out', 'main', 'cli.js');
  if (launch === 'built' && !existsSync(built)) throw new Error(`${built} is missing: npm run build makes it`);
  const program =
    launch === 'built'
      ? [join(ROOT, 'bin', 'toolgate.cjs')]
      : ['--import', 'tsx', join(ROOT, 'tools', 'host', 'cli.ts')];
  const { child, ready, errors } = await startServing<{ mcp: string; tokenFile: string }>(
    [...program, 'serve', '--port', '0', '--data-dir', dataDir],
    { ...env, TOOLGATE_QUIET: '1' },
    'toolgate serve',
  );
  const token = readFileSync(ready.tokenFile, 'utf8').trim();
  const client = new Client({ name: 'agent-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(ready.mcp), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return {
    name: launch === 'built' ? 'toolgate' : 'toolgate_tsx',
    client,
    dataDir,
    how: `toolgate serve (${
      launch === 'built' ? 'built JS: bin/toolgate.cjs, out/main/cli.js' : 'TypeScript through tsx'
    }), Streamable HTTP`,
    stderr: errors,
    close: () => stop(client, child),
  };
}

/**
 * Toolgate as a stdio client runs it: `toolgate mcp-stdio --data-dir DIR` (bin/toolgate.cjs, the
 * built bridge) against a host of its own (built, as `startToolgate`), reached over its local
 * socket. A host of its own: sharing one, a side's UI action would make the other's ui_dump stale.
 */
export async function startToolgateStdio(env: NodeJS.ProcessEnv): Promise<Peer> {
  const host = await startToolgate(env, 'built');
  if (!host.dataDir) throw new Error('the host peer has no data dir');
  const { client, errors } = await connectStdio(
    [join(ROOT, 'bin', 'toolgate.cjs'), 'mcp-stdio', '--data-dir', host.dataDir],
    { ...(env as Record<string, string>), TOOLGATE_QUIET: '1' },
  );
  return {
    name: 'toolgate_stdio',
    client,
    dataDir: host.dataDir,
    how: 'toolgate mcp-stdio (built bridge) to a toolgate serve of its own (built JS), stdio',
    stderr: errors,
    close: async () => {
      await client.close().catch(() => undefined);
      await host.close();
    },
  };
}

/** Starts mobile-mcp over stdio; `adb` picks its adb backend, otherwise its default (mobilecli). */
export async function startMobileMcp(env: NodeJS.ProcessEnv, backend: 'default' | 'adb'): Promise<Peer> {
  // mobilecli's daemon keeps its socket here: private to this run, started with this run's adb port.
  const home = mkdtempSync(join(tmpdir(), 'toolgate-bench-mobilecli-'));
  const { client, errors } = await connectStdio([MOBILE_MCP], {
    ...(env as Record<string, string>),
    // No posthog or scarf requests from the bench: it must not need the network.
    MOBILEMCP_DISABLE_TELEMETRY: '1',
    MOBILECLI_HOME: home,
    ...(backend === 'adb' ? { MOBILEMCP_LEGACY_ROBOT: '1' } : {}),
  });
  return {
    name: backend === 'adb' ? 'mobilemcp_adb' : 'mobilemcp',
    client,
    how: `mobile-mcp ${
      backend === 'adb' ? 'adb backend (MOBILEMCP_LEGACY_ROBOT=1)' : 'default backend (mobilecli)'
    }, stdio`,
    stderr: errors,
    close: async () => {
      await client.close().catch(() => undefined);
      // mobilecli's daemon outlives mobile-mcp (it stops itself after a long idle time): stop it now.
      await new Promise<void>((resolve) =>
        execFile(MOBILECLI, ['daemon', 'stop'], { env: { ...env, MOBILECLI_HOME: home }, timeout: 10_000 }, () =>
          resolve(),
        ),
      );
    },
  };
}

const FLOOR_SERVER = join(__dirname, 'floor-server.ts');

/** The SDK's own server with one tool that answers at once (floor-server.ts), over `via`. */
export async function startFloor(env: NodeJS.ProcessEnv, via: 'http' | 'stdio'): Promise<Peer> {
  const transport = via === 'http' ? 'Streamable HTTP' : 'stdio';
  const how = `the SDK's server and ${transport} transport, one tool answering at once`;
  if (via === 'stdio') {
    const { client, errors } = await connectStdio(
      ['--import', 'tsx', FLOOR_SERVER, 'stdio'],
      env as Record<string, string>,
    );
    return { name: 'floor_stdio', client, how, stderr: errors, close: () => client.close().catch(() => undefined) };
  }
  const { child, ready, errors } = await startServing<{ mcp: string }>(
    ['--import', 'tsx', FLOOR_SERVER, 'http'],
    env,
    'the floor server',
  );
  const client = new Client({ name: 'agent-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(ready.mcp)));
  return { name: 'floor_http', client, how, stderr: errors, close: () => stop(client, child) };
}

/** A node program serving HTTP, once it printed its JSON line of where it listens; and what it writes to stderr. */
async function startServing<Ready>(args: string[], env: NodeJS.ProcessEnv, what: string) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let written = '';
  child.stderr!.on('data', (d: Buffer) => void (written += d.toString()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}): ${written}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Ready);
    });
  });
  return { child, ready, errors: () => written };
}

/** A node program as a stdio MCP server, and what it writes to stderr. */
async function connectStdio(args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'pipe' });
  let written = '';
  transport.stderr?.on('data', (d: Buffer) => void (written += d.toString()));
  const client = new Client({ name: 'agent-bench', version: '1.0.0' });
  await client.connect(transport);
  return { client, errors: () => written };
}

async function stop(client: Client, child: ChildProcess): Promise<void> {
  await client.close().catch(() => undefined);
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}
