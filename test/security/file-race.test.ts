/**
 * Rule: the file tools read and write only what lies inside the workspace, whatever a local
 * process does to the path while a call runs. A file swapped for a symbolic link between the
 * check and the open is refused (the final component is opened without following links and the
 * open descriptor is compared with the checked path); a regular file with more than one hard link
 * is refused, because its other names may lie outside; and the host's own secrets (token,
 * database, logs, host.json) are never read, even with the workspace root set to the data dir.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
