/** Runs the real `toolgate serve` command as a child process and waits for its ready line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve(__dirname, '../../tools/host/cli.ts');

export interface ServedHost {
  child: ChildProcess;
  ready: { ready: true; ui: string; mcp: string; dataDir: string; uiLink: string };
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, TOOLGATE_QUIET: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export async function serve(dataDir: string, extra: string[] = []): Promise<ServedHost> {
  const child = runCli(['serve', '--port', '0', '--data-dir', dataDir, ...extra]);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  const ready = await new Promise<ServedHost['ready']>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 60 s; stderr: ${err}`)), 60_000);
    const check = () => {
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolveReady(JSON.parse(line) as ServedHost['ready']);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(({ code }) => reject(new Error(`serve exited with ${code} before it was ready: ${err}`)));
  });
  return { child, ready, stdout: () => out, exited };
}
