/**
 * What the terminal tests share: a real host (its own data dir and adb server) with a real MCP
 * client and the person's UI session; a small root file system built from busybox-static
 * (/bin/busybox and a link per applet, the way the Debian package's own initramfs does); the
 * person's answers to approvals; and a count of a terminal's processes read from /proc.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { HostOptions } from '../../../tools/host/host';
import { RootfsStore } from '../../../tools/terminal';
import type { PendingApproval } from '../../../shared/contract';
import { type TestHost, connectClient, startTestHost, textOf } from '../../host/harness';
import { freePort, killAdbServer } from '../../support/private-adb';
import { type PersonSession, openPersonSession } from '../../support/person-session';

export const BUSYBOX = '/bin/busybox';

export function requireBusybox(): void {
  if (!existsSync(BUSYBOX))
    throw new Error(`These tests need a static busybox at ${BUSYBOX}: sudo apt-get install -y busybox-static`);
}

/** Fills `dir` with a busybox system: /bin/busybox, a link per applet, and the folders a shell expects. */
export function buildBusyboxTree(dir: string): void {
  requireBusybox();
  for (const d of ['bin', 'etc', 'root', 'tmp', 'workspace']) mkdirSync(join(dir, d), { recursive: true });
  copyFileSync(BUSYBOX, join(dir, 'bin', 'busybox'));
  chmodSync(join(dir, 'bin', 'busybox'), 0o755);
  const applets = execFileSync(BUSYBOX, ['--list'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const a of applets)
    if (a !== 'busybox' && !existsSync(join(dir, 'bin', a))) symlinkSync('busybox', join(dir, 'bin', a));
}

/** A finished busybox root file system in the host's data dir, as a bootstrap would leave it. */
export function installBusyboxRootfs(dataDir: string, name = 'busybox'): string {
  const store = new RootfsStore(dataDir);
  const dir = store.begin(name, { kind: 'tarball', path: BUSYBOX });
  buildBusyboxTree(dir);
  store.finish(name, 2 * 1024 * 1024);
  return dir;
}

/** A tarball of a busybox system, as a person would give one. */
export function busyboxTarball(workDir: string, file: string): string {
  const tree = join(workDir, 'tree');
  buildBusyboxTree(tree);
  execFileSync('tar', ['-czf', file, '-C', tree, '.']);
  return file;
}

export interface CallAnswer {
  ok: boolean;
  text: string;
  data: Record<string, unknown>;
}

export interface TerminalLab {
  t: TestHost;
  client: Client;
  person: PersonSession;
  workspace: string;
  call(name: string, args?: Record<string, unknown>, client?: Client): Promise<CallAnswer>;
  /** Waits for the next approval to appear and answers it as the person. */
  answerNext(decision: 'approve_once' | 'approve_session' | 'deny', reason?: string): Promise<PendingApproval>;
  dispose(): Promise<void>;
}

export async function startTerminalLab(
  opts: {
    busybox?: boolean;
    hostEnabled?: boolean;
    host?: Partial<HostOptions>;
    clientName?: string;
    /** Leave the data dir in place when disposing (a cache the next run reuses). */
    keepDataDir?: boolean;
  } = {},
): Promise<TerminalLab> {
  const adbPort = opts.host?.adbPort ?? (await freePort());
  const t = await startTestHost({ approvalTimeoutMs: 30_000, ...opts.host, adbPort });
  if (opts.busybox) installBusyboxRootfs(t.dataDir);
  const person = await openPersonSession(t.host.uiLink());
  if (opts.hostEnabled) {
    const r = await person.rpc('updateSettings', { changes: { terminalHostEnabled: true } });
    if (r.status !== 200) throw new Error(`could not turn host terminals on: ${JSON.stringify(r.body)}`);
  }
  const client = await connectClient(t.host, opts.clientName ?? 'terminal-agent');
  const answered = new Set<string>();
  const lab: TerminalLab = {
    t,
    client,
    person,
    workspace: join(t.dataDir, 'workspace'),
    async call(name, args = {}, via = client) {
      const r = await via.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
      const data = (r.structuredContent ?? {}) as Record<string, unknown>;
      return { ok: !r.isError, text: textOf(r), data };
    },
    async answerNext(decision, reason) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const pending = (await t.host.api.pendingApprovals({})).find((p) => !answered.has(p.approvalId));
        if (pending) {
          answered.add(pending.approvalId);
          const r = await person.rpc('decideApproval', {
            approvalId: pending.approvalId,
            decision,
            ...(reason ? { reason } : {}),
          });
          if (r.status !== 200) throw new Error(`decideApproval: ${JSON.stringify(r.body)}`);
          return pending;
        }
        if (Date.now() > deadline) throw new Error('no approval appeared within 20 s');
        await new Promise((res) => setTimeout(res, 25));
      }
    },
    async dispose() {
      await client.close().catch(() => undefined);
      if (!opts.keepDataDir) return t.dispose();
      await t.host.close();
      if (opts.host?.adbPort === undefined) await killAdbServer(adbPort);
    },
  };
  return lab;
}

/** The pids of live processes a terminal started, found by the marker in their environment (read from /proc). */
export function processesOfTerminal(id: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (!env.split('\0').some((e) => e.startsWith(`TOOLGATE_TERMINAL=${id}-`))) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z') found.push(Number(name));
    } catch {
      // gone while reading
    }
  }
  return found;
}

export async function eventually<T>(probe: () => Promise<T> | T, ok: (v: T) => boolean, withinMs = 15_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
