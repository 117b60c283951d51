/**
 * Rule: the data dir is its owner's alone. The folder and every folder in it are 0700, every file
 * in it (token, toolgate.db with its -wal and -shm, host.json, logs/host.log) is 0600: when the
 * host creates them, when SQLite creates the -wal and -shm files later, and when the data dir was
 * left 0755 with 0644 files by an older version or by hand. Another account cannot read a value
 * memorized in the WAL.
 */
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../tools/host/store/database';
import { type TestHost, connectClient, startTestHost } from '../host/harness';

const DB_FILES = ['toolgate.db', 'toolgate.db-wal', 'toolgate.db-shm'];

/**
 * Every folder and file under `root` with its permission bits; the workspace's own files are the person's, not listed.
 */
function modes(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    out[path] = (statSync(join(root, path)).mode & 0o777).toString(8);
    if (entry.isDirectory() && path !== 'workspace') Object.assign(out, modes(root, path));
  }
  return out;
}

function expectOwnerOnly(dataDir: string): void {
  expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
  const found = modes(dataDir);
  for (const name of [...DB_FILES, 'token', 'host.json', 'logs', 'logs/host.log', 'workspace'])
    expect(found).toHaveProperty(name);
  const loose = Object.entries(found).filter(([path, mode]) => {
    const isDir = statSync(join(dataDir, path)).isDirectory();
    return mode !== (isDir ? '700' : '600');
  });
  expect(loose).toEqual([]);
}

/** Spans are written by every call; a memorize puts a row in the WAL. */
async function useHost(client: Client): Promise<void> {
  await client.callTool({ name: 'memorize', arguments: { text: 'the door PIN is 48213579', key: 'door.pin' } });
  await client.callTool({ name: 'recall', arguments: { query: 'door' } });
  await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
}

let t: TestHost | undefined;
let client: Client | undefined;
let base: string | undefined;
afterEach(async () => {
  await client?.close();
  await t?.dispose();
  if (base) rmSync(base, { recursive: true, force: true });
  client = undefined;
  t = undefined;
  base = undefined;
});

/** A data dir path whose folder does not exist yet. */
function newDataDir(): string {
  base = mkdtempSync(join(tmpdir(), 'toolgate-perm-'));
  return join(base, 'data');
}

describe('the data dir', () => {
  it("is created 0700 with every file 0600, SQLite's later -wal and -shm included, under a loose umask", async () => {
    const dataDir = newDataDir();
    const umask = process.umask(0o002);
    try {
      t = await startTestHost({ dataDir });
      client = await connectClient(t.host);
      await useHost(client);
    } finally {
      process.umask(umask);
    }
    expect(statSync(join(dataDir, 'toolgate.db-wal')).size).toBeGreaterThan(0);
    expectOwnerOnly(dataDir);
  });

  it('left 0755 with 0644 files by an older version is tightened at start', async () => {
    const dataDir = newDataDir();
    mkdirSync(join(dataDir, 'logs'), { recursive: true });
    mkdirSync(join(dataDir, 'workspace'));
    openDatabase(join(dataDir, 'toolgate.db')).close();
    for (const leftover of ['toolgate.db-wal', 'toolgate.db-shm']) closeSync(openSync(join(dataDir, leftover), 'w'));
    writeFileSync(join(dataDir, 'token'), 'an-old-token-of-more-than-16-characters\n');
    writeFileSync(join(dataDir, 'host.json'), '{"pid":1}');
    writeFileSync(join(dataDir, 'logs', 'host.log'), 'an old line\n');
    for (const file of [...DB_FILES, 'token', 'host.json', 'logs/host.log']) chmodSync(join(dataDir, file), 0o644);
    for (const dir of ['', 'logs', 'workspace']) chmodSync(join(dataDir, dir), 0o755);
    expect(Object.values(modes(dataDir))).toContain('644');

    t = await startTestHost({ dataDir });
    client = await connectClient(t.host);
    await useHost(client);
    expect(statSync(join(dataDir, 'toolgate.db-wal')).size).toBeGreaterThan(0);
    expectOwnerOnly(dataDir);
  });
});
