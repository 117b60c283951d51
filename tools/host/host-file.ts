/**
 * DATA/host.json: where a running host of this data dir listens, and its pid. The host writes it
 * once it listens and removes it when it stops (close, process.exit, an uncaught error); a host
 * killed outright leaves it behind, so a reader believes it only while that pid is alive. Even
 * then the port may belong to someone else: the stdio bridge also checks the listener's owner and
 * the host's proof before it sends the token (mcp/own-account-fetch.ts, http/host-proof.ts).
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HostRecord {
  port: number;
  ui: string;
  mcp: string;
  pid: number;
  /** The key that signs one-time UI links (`toolgate ui-link`): a person's secret, hence the file's 0600. */
  uiLinkKey?: string;
}

export type HostLookup = { ok: true; host: HostRecord } | { ok: false; message: string };

export type PidState = 'alive' | 'gone' | 'other-account';

export function hostFilePath(dataDir: string): string {
  return join(dataDir, 'host.json');
}

/** Writes host.json and returns the function that removes it (only while it still names this process). */
export function writeHostFile(
  dataDir: string,
  address: { port: number; ui: string; mcp: string },
  uiLinkKey: string,
): () => void {
  const file = hostFilePath(dataDir);
  const record: HostRecord = { ...address, pid: process.pid, uiLinkKey };
  writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  chmodSync(file, 0o600);
  return () => {
    try {
      if ((JSON.parse(readFileSync(file, 'utf8')) as Partial<HostRecord>).pid !== process.pid) return;
    } catch {
      return; // gone already, or no longer ours to judge
    }
    rmSync(file, { force: true });
  };
}

export function pidState(pid: number): PidState {
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? 'other-account' : 'gone';
  }
}

function isRecord(v: unknown): v is HostRecord {
  const r = v as Partial<HostRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    Number.isInteger(r.port) &&
    (r.port ?? 0) > 0 &&
    (r.port ?? 0) < 65536 &&
    Number.isInteger(r.pid) &&
    (r.pid ?? 0) > 0 &&
    typeof r.mcp === 'string'
  );
}

/** The running host of `dataDir`, or why there is none. */
export function readHostFile(dataDir: string, state: (pid: number) => PidState = pidState): HostLookup {
  const file = hostFilePath(dataDir);
  const start = `start one with \`npm run serve -- --data-dir ${dataDir}\` (or open the Toolgate app), or pass --url`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { ok: false, message: `no Toolgate host is running for ${dataDir} (${file} is missing); ${start}` };
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    record = undefined;
  }
  if (!isRecord(record))
    return {
      ok: false,
      message: `no Toolgate host is running for ${dataDir} (${file} is not a host record); ${start}`,
    };
  const pid = state(record.pid);
  if (pid === 'gone')
    return {
      ok: false,
      message: `no Toolgate host is running for ${dataDir} (stale host.json from pid ${record.pid}); ${start}`,
    };
  if (pid === 'other-account')
    return {
      ok: false,
      message:
        `no Toolgate host of yours is running for ${dataDir} (host.json names pid ${record.pid}, a process ` +
        `of another account); ${start}`,
    };
  return { ok: true, host: record };
}
