/**
 * Rule: the UI files are served from the renderer build folder and nothing else: encoded, doubled
 * and backslashed `..` never reach a file beside or above it, a malformed escape is a plain 404
 * (never a 500), client-side routes load the app shell, and every page carries the strict CSP.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, startTestHost } from './harness';

const SECRET = 'secret-beside-the-build-7f3a';
let base: string;
let t: TestHost;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'toolgate-static-'));
  const build = join(base, 'renderer');
  mkdirSync(join(build, 'assets'), { recursive: true });
  writeFileSync(join(build, 'index.html'), '<!doctype html><title>shell</title>');
  writeFileSync(join(build, 'assets', 'app.js'), 'console.log("app")');
  writeFileSync(join(base, 'secret.txt'), SECRET);
  writeFileSync(join(base, 'renderer-secret.txt'), SECRET);
  t = await startTestHost({ rendererDir: build });
});
afterAll(async () => {
  await t?.dispose();
  rmSync(base, { recursive: true, force: true });
});

/** A GET with the path exactly as written (fetch would normalise the dots away). */
function get(path: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: t.host.address.port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the UI files', () => {
  it('are served with the strict CSP, and a client-side route loads the app shell', async () => {
    const asset = await get('/assets/app.js');
    expect(asset).toMatchObject({ status: 200, body: 'console.log("app")' });
    const route = await get('/approvals');
    expect(route.body).toContain('<title>shell</title>');
    expect(String(route.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  it('never include a file beside or above the build folder', async () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/%252e%252e/secret.txt',
      '/....//secret.txt',
      '/../renderer-secret.txt',
      '/%2e%2e/renderer-secret.txt',
      '//../secret.txt',
    ];
    for (const path of attempts) {
      const r = await get(path);
      expect([path, r.body.includes(SECRET)]).toEqual([path, false]);
    }
  });

  it('answers a malformed escape with 404, not a server error', async () => {
    for (const path of ['/%E0%A4%A', '/assets/%', '/%zz.js']) {
      const r = await get(path);
      expect([path, r.status]).toEqual([path, 404]);
    }
    expect((await get('/healthz')).status).toBe(200);
  });
});
