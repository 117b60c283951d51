/**
 * Rule: `toolgate serve` through bin/toolgate.cjs (what `npx toolgate serve` runs) starts from the
 * TypeScript source when the checkout has no build, and the host it starts finds the phones of the
 * adb server ANDROID_ADB_SERVER_PORT names when no adb port is set — the server the adb CLI would
 * use in the same environment.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectToAdb, disconnectFromAdb, runAdb, startVirtualDevice } from '../../tools/devices/virtual';
import { requireAdb } from '../support/requirements';
import { freePort, killAdbServer } from '../support/private-adb';
import { removeDir } from '../support/remove-dir';
import { textOf } from './harness';

const ROOT = resolve(__dirname, '../..');
const LINKED = ['tools', 'shared', 'node_modules', 'package.json'];
const dirs: string[] = [];
const links: string[] = [];
afterAll(async () => {
  // The links go first, by name: removing the directory must never reach through them into the checkout.
  for (const l of links) unlinkSync(l);
  for (const d of dirs) await removeDir(d);
});

/** A checkout without `out/`: bin/toolgate.cjs copied beside links to the real sources and node_modules. */
function unbuiltCheckout(): string {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-unbuilt-'));
  dirs.push(root);
  mkdirSync(join(root, 'bin'));
  copyFileSync(join(ROOT, 'bin', 'toolgate.cjs'), join(root, 'bin', 'toolgate.cjs'));
  for (const name of LINKED) {
    symlinkSync(join(ROOT, name), join(root, name));
    links.push(join(root, name));
  }
  return root;
}

describe('toolgate serve through bin/toolgate.cjs without a build', () => {
  it('runs the TypeScript source, says so, and serves a phone on the ANDROID_ADB_SERVER_PORT adb server', async () => {
    requireAdb();
    const adbPort = await freePort();
    // The adb CLI follows the variable too: connectToAdb attaches the phone to the same private server.
    process.env.ANDROID_ADB_SERVER_PORT = String(adbPort);
    await runAdb(['-P', String(adbPort), 'start-server']);
    const device = await startVirtualDevice();
    await connectToAdb(device);
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-unbuilt-data-'));
    dirs.push(dataDir);
    const child = spawn(
      process.execPath,
      [join(unbuiltCheckout(), 'bin', 'toolgate.cjs'), 'serve', '--port', '0', '--data-dir', dataDir],
      { env: { ...process.env, TOOLGATE_QUIET: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    try {
      const ready = await new Promise<{ mcp: string; tokenFile: string }>((resolveReady, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) resolveReady(JSON.parse(out.split('\n')[0]!));
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}: ${err}`)));
      });
      expect(err).toContain('is not built (npm run build makes it); running the TypeScript source through tsx');
      const client = new Client({ name: 'test', version: '1.0.0' });
      const token = readFileSync(ready.tokenFile, 'utf8').trim();
      await client.connect(
        new StreamableHTTPClientTransport(new URL(ready.mcp), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const info = await client.callTool({ name: 'get_device_info', arguments: {} });
      expect(JSON.parse(textOf(info))).toMatchObject({ serial: device.serial, model: 'Pixel 8' });
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await exited;
      await disconnectFromAdb(device);
      await device.close();
      await killAdbServer(adbPort);
    }
  });
});
