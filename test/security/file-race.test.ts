/**
 * Rule: the file tools read and write only what lies inside the workspace, whatever a local
 * process does to the path while a call runs. A file swapped for a symbolic link between the
 * check and the open is refused (the final component is opened without following links and the
 * open descriptor is compared with the checked path); a regular file with more than one hard link
 * is refused, because its other names may lie outside; and the host's own secrets (token,
 * database, logs, host.json) are never read, even with the workspace root set to the data dir.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostSettings } from '../../tools/host/host-settings';
import { openDatabase } from '../../tools/host/store/database';
import { SettingsStore } from '../../tools/host/store/settings-store';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';

const PLAIN = 'an ordinary workspace file\n';

/** A tight loop swapping `x.txt` between a regular file and a link to the token, each swap one atomic rename. */
const SWAPPER = `
const fs = require('node:fs');
const [dir, target, plain] = process.argv.slice(1);
const x = dir + '/x.txt', file = dir + '/.swap-file', link = dir + '/.swap-link';
for (;;) {
  fs.writeFileSync(file, plain);
  fs.renameSync(file, x);
  fs.rmSync(link, { force: true });
  fs.symlinkSync(target, link);
  fs.renameSync(link, x);
}`;

const SENTINEL = 'SENTINEL-outside-the-workspace-3c9e';
const SECRET_REFUSAL = "is one of Toolgate's own secret files";

/** A destructive call, approved by a person once it waits (the file tools' refusals come after approval). */
async function approved(host: TestHost, agent: Client, name: string, args: Record<string, unknown>) {
  const call = agent.callTool({ name, arguments: args });
  await expect.poll(() => host.host.api.pendingApprovals({}), { timeout: 5000 }).toHaveLength(1);
  const [item] = await host.host.api.pendingApprovals({});
  await host.host.api.decideApproval({ approvalId: item?.approvalId ?? '', decision: 'approve_once' });
  return call;
}

/** A host whose workspace root is `root`, set as a person would, before it starts. */
async function hostWithRoot(dataDir: string, root: string): Promise<TestHost> {
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'toolgate.db'));
  new HostSettings(new SettingsStore(db)).update({ workspaceRoot: root });
  db.close();
  return startTestHost({ dataDir });
}

let t: TestHost;
let client: Client;

beforeAll(async () => {
  t = await startTestHost({ rateLimitPerMinute: { read_file: 1_000_000 } });
  client = await connectClient(t.host, 'race-agent');
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('a file swapped for a link while read_file runs', () => {
  let swapper: ChildProcess | undefined;
  afterAll(() => {
    swapper?.kill('SIGKILL');
  });

  it('never returns the token in 1,600 calls', async () => {
    const workspace = join(t.dataDir, 'workspace');
    const token = readFileSync(join(t.dataDir, 'token'), 'utf8').trim();
    swapper = spawn(process.execPath, ['-e', SWAPPER, workspace, join(t.dataDir, 'token'), PLAIN], {
      stdio: 'ignore',
    });
    // x.txt exists from the swapper's first rename on (each swap is atomic); start reading then.
    await expect.poll(() => existsSync(join(workspace, 'x.txt')), { timeout: 10_000 }).toBe(true);
    const texts: string[] = [];
    const codes: string[] = [];
    const worker = async () => {
      for (let i = 0; i < 400; i++) {
        const r = await client.callTool({ name: 'read_file', arguments: { path: 'x.txt' } });
        texts.push(textOf(r));
        codes.push(r.isError ? String((r.structuredContent as { code?: string } | undefined)?.code) : 'OK');
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    // The swapper ran the whole time (it loops until killed).
    expect(swapper.exitCode).toBeNull();
    const exited = new Promise((resolve) => swapper?.once('exit', resolve));
    swapper.kill('SIGKILL');
    await exited;
    expect(texts).toHaveLength(1600);
    expect(texts.filter((text) => text.includes(token)).length).toBe(0);
    // Every call either read the regular file or was refused; nothing else came back.
    expect(texts.filter((text, i) => codes[i] === 'OK' && text !== PLAIN.trimEnd())).toEqual([]);
    expect(new Set(codes.filter((c) => c !== 'OK'))).toEqual(new Set(['PERMISSION_DENIED']));
    // And refusing was the race, not a broken tool: once the swapping stops, the file reads.
    rmSync(join(workspace, 'x.txt'));
    writeFileSync(join(workspace, 'x.txt'), PLAIN);
    expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: 'x.txt' } }))).toBe(PLAIN.trimEnd());
  });
});

describe('a hard link inside the workspace', () => {
  let outsideDir: string;
  beforeAll(() => {
    // Same file system as the workspace (both under the temporary folder), as a hard link needs.
    outsideDir = mkdtempSync(join(tmpdir(), 'toolgate-outside-'));
    writeFileSync(join(outsideDir, 'notes.txt'), `${SENTINEL}\n`);
    linkSync(join(outsideDir, 'notes.txt'), join(t.dataDir, 'workspace', 'notes.txt'));
  });
  afterAll(() => rmSync(outsideDir, { recursive: true, force: true }));

  it('to a file outside is refused for reading, searching, editing, writing and copying, naming the rule', async () => {
    const rule = 'Path "notes.txt" is refused: it has 2 hard links; its other names may lie outside the workspace.';
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toContain(rule);
    const search = await client.callTool({ name: 'search_files', arguments: { query: SENTINEL } });
    expect(search.structuredContent).toMatchObject({ count: 0 });
    const changes: Array<[string, Record<string, unknown>]> = [
      ['write_file', { path: 'notes.txt', content: 'changed' }],
      ['edit_file', { path: 'notes.txt', oldText: SENTINEL, newText: 'changed' }],
      ['copy_move_file', { source: 'notes.txt', destination: 'copy.txt', mode: 'copy' }],
    ];
    for (const [name, args] of changes) {
      const r = await approved(t, client, name, args);
      expect(r.isError, name).toBe(true);
      expect(textOf(r), name).toContain(rule);
      expect(textOf(r), name).not.toContain(SENTINEL);
    }
    expect(readFileSync(join(outsideDir, 'notes.txt'), 'utf8')).toBe(`${SENTINEL}\n`);
    expect(existsSync(join(t.dataDir, 'workspace', 'copy.txt'))).toBe(false);
  });

  it('to the token is refused as a secret', async () => {
    linkSync(join(t.dataDir, 'token'), join(t.dataDir, 'workspace', 'token-link'));
    const r = await client.callTool({ name: 'read_file', arguments: { path: 'token-link' } });
    expect(textOf(r)).toContain(SECRET_REFUSAL);
    expect(textOf(r)).not.toContain(t.host.token);
  });
});

describe('with the workspace root set to the data dir itself', () => {
  const PIN = '48213579';
  let d: TestHost;
  let agent: Client;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-root-is-data-'));
    d = await hostWithRoot(dataDir, dataDir);
    agent = await connectClient(d.host, 'root-agent');
    await agent.callTool({ name: 'memorize', arguments: { text: `the door PIN is ${PIN}` } });
    symlinkSync(join(dataDir, 'token'), join(dataDir, 'workspace', 'token-link'));
  });
  afterAll(async () => {
    await agent?.close();
    await d?.dispose();
  });

  it('read_file refuses the token, the database and its journals, host.json and the logs, by any path', async () => {
    const paths = [
      'token',
      './token',
      'workspace/../token',
      join(d.dataDir, 'token'),
      'workspace/token-link',
      'toolgate.db',
      'toolgate.db-wal',
      'toolgate.db-shm',
      'host.json',
      'logs/host.log',
    ];
    for (const path of paths) {
      const r = await agent.callTool({ name: 'read_file', arguments: { path } });
      expect(r.isError, path).toBe(true);
      expect(textOf(r), path).toContain(SECRET_REFUSAL);
      expect(textOf(r), path).not.toContain(d.host.token);
    }
  });

  it('search_files finds nothing in them, while it still finds a workspace file', async () => {
    for (const query of [d.host.token.slice(0, 12), PIN, 'listening on']) {
      const r = await agent.callTool({ name: 'search_files', arguments: { query } });
      expect(r.structuredContent, query).toMatchObject({ count: 0 });
    }
    writeFileSync(join(d.dataDir, 'workspace', 'note.txt'), 'listening on port 80\n');
    const found = await agent.callTool({ name: 'search_files', arguments: { query: 'listening on' } });
    expect(found.structuredContent).toMatchObject({ count: 1, matches: [{ path: 'workspace/note.txt' }] });
  });

  it('copy_move_file neither copies, moves nor replaces them, nor copies the folder that holds the logs', async () => {
    const calls: Array<Record<string, unknown>> = [
      { source: 'token', destination: 'workspace/stolen', mode: 'copy' },
      { source: 'workspace/token-link', destination: 'workspace/stolen', mode: 'copy' },
      { source: 'toolgate.db-wal', destination: 'workspace/wal', mode: 'copy' },
      { source: 'logs', destination: 'workspace/logs', mode: 'copy' },
      { source: 'host.json', destination: 'workspace/host.json', mode: 'move' },
      { source: 'workspace/note.txt', destination: 'token', mode: 'copy', overwrite: true },
    ];
    for (const args of calls) {
      const r = await approved(d, agent, 'copy_move_file', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r), JSON.stringify(args)).toContain(SECRET_REFUSAL);
    }
    expect(readdirSync(join(d.dataDir, 'workspace')).sort()).toEqual(['note.txt', 'token-link']);
    expect(readFileSync(join(d.dataDir, 'token'), 'utf8').trim()).toBe(d.host.token);
  });
});

describe('with the workspace root set to a folder above the data dir', () => {
  let base: string;
  let d: TestHost;
  let agent: Client;
  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'toolgate-root-above-'));
    d = await hostWithRoot(join(base, 'data'), base);
    agent = await connectClient(d.host, 'above-agent');
  });
  afterAll(async () => {
    await agent?.close();
    await d?.dispose();
    rmSync(base, { recursive: true, force: true });
  });

  it('refuses the secrets below it, and deleting or copying the data dir whole', async () => {
    const read = await agent.callTool({ name: 'read_file', arguments: { path: 'data/token' } });
    expect(textOf(read)).toContain(SECRET_REFUSAL);
    for (const [name, args] of [
      ['delete_file', { path: 'data', recursive: true }],
      ['copy_move_file', { source: 'data', destination: 'copy', mode: 'copy' }],
      ['copy_move_file', { source: 'data', destination: 'moved', mode: 'move' }],
    ] as const) {
      const r = await approved(d, agent, name, args);
      expect(textOf(r), name).toContain(SECRET_REFUSAL);
    }
    expect(readFileSync(join(base, 'data', 'token'), 'utf8').trim()).toBe(d.host.token);
    expect(readdirSync(base)).toEqual(['data']);
  });
});
