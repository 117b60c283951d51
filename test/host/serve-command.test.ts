/**
 * Rule: `toolgate serve` prints exactly one JSON line when ready, nothing else on stdout, with the
 * one-time link that opens the UI for a person; it shuts down cleanly on SIGTERM (pending approvals
 * denied, database closed, exit code 0); bad flags get a usage message and exit code 2, and
 * `--help` prints it alone with exit code 0.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { pragmaValue } from '../../tools/common/sqlite';
import { runCli, serve } from './process-harness';
import { openPersonSession } from '../support/person-session';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'toolgate-serve-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('toolgate --help', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the usage on stdout and exits 0, with no error', async (flag) => {
    const child = runCli([flag]);
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(0);
    expect(out).toMatch(/^usage:\n {2}toolgate serve /);
    expect(err).toBe('');
  });
});

describe('toolgate serve', () => {
  it('refuses a bad port with a usage message and exit code 2', async () => {
    const child = runCli(['serve', '--port', 'eighty']);
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(err).toContain('--port must be an integer');
    expect(err).toContain('usage:');
  });

  it('refuses a demo phone’s screen or cable it cannot set up, saying what it takes', async () => {
    const refusal = async (args: string[]) => {
      const child = runCli(['serve', ...args]);
      let err = '';
      child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
      return { code: await new Promise((r) => child.on('exit', r)), err };
    };
    expect(await refusal(['--virtual-device', '--screen', '1081x2400'])).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        "--screen must be WIDTHxHEIGHT with even sides from 16 to 4096 (1080x2400), got '1081x2400'",
      ),
    });
    expect(await refusal(['--virtual-device', '--link', 'lte'])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--link must be usb2 (~35 MB/s, 1 ms) or wifi (~5 MB/s, 5 ms), got 'lte'"),
    });
    expect(await refusal(['--screen', '1080x2400'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--screen and --link set up the virtual phone: add --virtual-device'),
    });
  });

  it('refuses an unknown flag', async () => {
    const child = runCli(['serve', '--bogus']);
    expect(await new Promise((r) => child.on('exit', r))).toBe(2);
  });

  it('prints one ready line, creates its data dir, and exits 0 on SIGTERM', async () => {
    const dir = tempDir();
    const served = await serve(dir);
    expect(served.ready).toEqual({
      ready: true,
      ui: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      mcp: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
      dataDir: dir,
      tokenFile: join(dir, 'token'),
      uiLink: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/session\/[\w.-]+$/),
    });
    const person = await openPersonSession(served.ready.uiLink);
    expect((await person.rpc('info')).body).toMatchObject({ mcpUrl: served.ready.mcp, dataDir: dir });
    expect(readFileSync(join(dir, 'token'), 'utf8').trim().length).toBeGreaterThanOrEqual(16);
    expect(existsSync(join(dir, 'host.json'))).toBe(true);
    const health = await fetch(served.ready.ui.replace(/\/$/, '/healthz'));
    expect(health.status).toBe(200);
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(served.stdout().trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'host.json'))).toBe(false);
    const db = new DatabaseSync(join(dir, 'toolgate.db'));
    expect(pragmaValue(db, 'integrity_check')).toBe('ok');
    db.close();
  });

  it('uses TOOLGATE_TOKEN when it is set, as the default client’s token', async () => {
    const dir = tempDir();
    const child = runCli(['serve', '--port', '0', '--data-dir', dir], { TOOLGATE_TOKEN: 'from-the-environment-123' });
    let out = '';
    await new Promise<void>((r) =>
      child.stdout?.on('data', (c: Buffer) => ((out += c.toString()), out.includes('\n') && r())),
    );
    const { mcp } = JSON.parse(out) as { mcp: string };
    const initialize = (token: string) =>
      fetch(mcp, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'env', version: '1' } },
        }),
      });
    expect((await initialize('from-the-environment-123')).status).toBe(200);
    expect((await initialize('not-the-environment-token')).status).toBe(401);
    child.kill('SIGINT');
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
  });
});
