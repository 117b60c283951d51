/**
 * Rule: every native addon the app ships is a Node-API addon, so Electron (its own Node 24) and Node
 * alike load it. An addon built for one Node's ABI is named here before a user meets
 * "compiled against a different Node.js version".
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exportsNodeApi,
  loadsOnThisPlatform,
  productionAddons,
  productionPackageDirs,
} from '../../scripts/lib/native-addons';

const root = resolve(__dirname, '../..');

describe('native addons among the production dependencies', () => {
  it('reads the production packages from the lock file', () => {
    const dirs = productionPackageDirs(root).map((d) => d.slice(root.length + 1));
    expect(dirs).toContain('node_modules/@devicefarmer/adbkit');
    expect(dirs).not.toContain('node_modules/vitest');
  });

  it('are all Node-API addons', () => {
    const notNodeApi = productionAddons(root).filter((a) => !a.nodeApi);
    expect(notNodeApi.map((a) => a.file.slice(root.length + 1))).toEqual([]);
  });
});

describe('the Node-API check itself', () => {
  it('recognises a real Node-API addon (a prebuilt napi-rs binary of the build tools)', () => {
    const dir = join(root, 'node_modules/@rolldown');
    const binding = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find(
      (f) => f.endsWith('.node') && loadsOnThisPlatform(join(dir, f)),
    );
    expect(binding).toBeDefined();
    expect(exportsNodeApi(join(dir, binding!))).toBe(true);
  });

  it('refuses a shared object that does not export the Node-API entry point', () => {
    const libc = ['/lib/x86_64-linux-gnu/libc.so.6', '/lib/aarch64-linux-gnu/libc.so.6'].find((f) => {
      try {
        return loadsOnThisPlatform(f);
      } catch {
        return false;
      }
    });
    expect(libc).toBeDefined();
    expect(exportsNodeApi(libc!)).toBe(false);
  });
});
