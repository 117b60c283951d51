/**
 * The desktop app started from its built bundle (`out/main/index.js`) in a Node 24 child process
 * with Electron's main-process API stood in (electron-standin.cjs): calls go through its real IPC
 * handlers as the app's own window makes them, and an MCP client reaches its real /mcp endpoint.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract';
import { ensureBuilt } from './build';
import { freePort } from './private-adb';

const root = resolve(__dirname, '../..');

export interface DesktopApp {
  port: number;
  /** A contract method through the IPC bridge, as the window's preload calls it. */
  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /** A real MCP client with the data dir's bearer token. */
  connect(name: string): Promise<Client>;
  stderr(): string;
  /** Quits as a person would (the app's will-quit handlers run); resolves with the exit code. */
  quit(): Promise<number | null>;
}

type Invoked =
  | { kind: 'invoked'; id: number; ok: true; value: unknown }
  | { kind: 'invoked'; id: number; ok: false; error: string };

export async function startDesktopApp(userData: string, env: Record<string, string>): Promise<DesktopApp> {
  await ensureBuilt();
  const port = await freePort();
  const base = { ...process.env };
  for (const name of ['TOOLGATE_GITHUB_TOKEN', 'TOOLGATE_TOKEN']) delete base[name];
  const child: ChildProcess = fork(join(root, 'out/main/index.js'), [], {
    execArgv: ['--require', join(root, 'test/support/electron-standin.cjs')],
    env: { ...base, ...env, TOOLGATE_PORT: String(port), TOOLGATE_STANDIN_USER_DATA: userData, TOOLGATE_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const waiting = new Map<number, (m: Invoked) => void>();
  let handlers = 0;
  child.on('message', (m: { kind: string }) => {
    if (m.kind === 'handler') handlers++;
    if (m.kind === 'invoked') waiting.get((m as Invoked).id)?.(m as Invoked);
  });
  let ids = 0;
  const app: DesktopApp = {
    port,
    invoke(method, input) {
      const id = ++ids;
      return new Promise((done, fail) => {
        waiting.set(id, (m) => {
          waiting.delete(id);
          m.ok ? done(m.value as never) : fail(new Error(m.error));
        });
        child.send({ kind: 'invoke', id, channel: `toolgate:${method}`, input });
      });
    },
    async connect(name) {
      const token = readFileSync(join(userData, 'token'), 'utf8').trim();
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    },
    stderr: () => stderr,
    async quit() {
      if (child.exitCode === null) child.send({ kind: 'quit' });
      return exit;
    },
  };
  // Ready once the bridge has its handlers and the host answers.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) at start:\n${stderr}`);
    const up =
      handlers > 0 &&
      (await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
    if (up) return app;
    await new Promise((r) => setTimeout(r, 50));
  }
}
