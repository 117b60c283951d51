/**
 * Rule: in the desktop app the GitHub token set in Settings is sealed by Electron's safeStorage with
 * the OS keychain's key, in DATA/github-token.enc (0600), and only ever opened in the main process:
 * the file holds no plaintext, a restart opens it again, a keychain that lost its key opens
 * nothing, and Remove deletes it and unregisters the GitHub tools (tools/list_changed). Where the
 * keychain is missing or is only Chromium's built-in key (Linux's basic_text backend: obfuscation),
 * the app keeps the token in a 0600 file as headless Toolgate does and says so in the status, and
 * moves it into the keychain once one is there.
 *
 * The built main bundle runs under Node with Electron's API stood in (test/support/electron-standin.cjs:
 * the Electron binary is not installed on this machine); its safeStorage seals as Chromium does on
 * Linux (test/support/chromium-safe-storage.cjs). Everything else is the real app.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITHUB_TOOL_IDS } from '../../tools/github';
import { type GithubServer, startGithubServer } from '../github/support/github-server';
import { type DesktopApp, startDesktopApp } from '../support/desktop-app';
import { removeDir } from '../support/remove-dir';

const TOKEN = 'ghp_keychainSecret4b7e1d9c3a6f0e2d8b5c7a1f3';
const KEYRING = {
  TOOLGATE_STANDIN_STORAGE_BACKEND: 'gnome_libsecret',
  TOOLGATE_STANDIN_KEYRING: 'the-keyrings-own-secret',
};
const NO_KEYRING = { TOOLGATE_STANDIN_STORAGE_BACKEND: 'basic_text' };
const { openBasicText } = require('../support/chromium-safe-storage.cjs') as { openBasicText(b: Buffer): string };

let gh: GithubServer;
const dirs: string[] = [];
const running = new Set<DesktopApp>();

async function start(userData: string, env: Record<string, string>): Promise<DesktopApp> {
  const app = await startDesktopApp(userData, env);
  running.add(app);
  return app;
}
async function quit(app: DesktopApp): Promise<void> {
  expect(await app.quit()).toBe(0);
  running.delete(app);
}
const githubTools = async (client: Client) =>
  (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('github_'));
/** The person gives the default client every toolset (github included); the agent turns github on. */
async function grantGithub(app: DesktopApp, client: Client): Promise<void> {
  const toolsets = ((await app.invoke('listToolsets', {})) as Array<{ name: string }>).map((t) => t.name);
  await app.invoke('setClientToolsets', { id: 'default', toolsets });
  await client.callTool({ name: 'toolset_enable', arguments: { toolset: 'github' } });
}
const sealedFile = (dir: string) => join(dir, 'github-token.enc');
const plainFile = (dir: string) => join(dir, 'github-token');

beforeAll(async () => {
  gh = await startGithubServer(TOKEN);
});
afterAll(async () => {
  for (const app of running) await app.quit();
  await gh?.close();
  for (const dir of dirs) await removeDir(dir);
});

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-keychain-'));
  dirs.push(dir);
  return dir;
}

describe('with a keyring, the token is sealed by the OS keychain', () => {
  let userData: string;
  let app: DesktopApp;
  let client: Client;
  let listChanged = 0;

  beforeAll(async () => {
    userData = freshDataDir();
    app = await start(userData, KEYRING);
    await app.invoke('updateSettings', { changes: { githubApiUrl: gh.url } });
    client = await app.connect('keychain-watcher');
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void listChanged++);
  });
  afterAll(async () => client?.close());

  it('says the keychain keeps a token set here, with no warning', async () => {
    const status = await app.invoke('githubStatus', {});
    expect(status).toMatchObject({ tokenSet: false, source: 'none', registered: false });
    expect(status.storage).toBe('the data dir, encrypted with a key the OS keychain keeps (gnome_libsecret)');
    expect(status.storageWarning).toBeUndefined();
  });

  it('registers the GitHub tools when a token is set in the window, announced with tools/list_changed', async () => {
    const status = await app.invoke('setGithubToken', { token: TOKEN });
    expect(status).toMatchObject({ tokenSet: true, source: 'stored', registered: true });
    expect(JSON.stringify(status)).not.toContain(TOKEN);
    await expect.poll(() => listChanged, { timeout: 10_000 }).toBeGreaterThan(0);
    // Registered, but no client has the github toolset until a person gives it.
    expect(await githubTools(client)).toEqual([]);
    await grantGithub(app, client);
    expect((await githubTools(client)).sort()).toEqual([...GITHUB_TOOL_IDS].sort());
  });

  it("writes only the sealed token, 0600, which Chromium's built-in key cannot open", () => {
    const sealed = readFileSync(sealedFile(userData));
    expect(statSync(sealedFile(userData)).mode & 0o777).toBe(0o600);
    expect(sealed.subarray(0, 3).toString()).toBe('v11');
    expect(sealed.includes(Buffer.from(TOKEN))).toBe(false);
    expect(sealed.toString('latin1')).not.toContain(TOKEN.slice(4, 16));
    expect(() => openBasicText(sealed)).toThrow();
    expect(existsSync(plainFile(userData))).toBe(false);
  });

  it('opens the sealed token again after a restart and calls GitHub with it', async () => {
    await client.close();
    await quit(app);
    app = await start(userData, KEYRING);
    client = await app.connect('keychain-watcher');
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void listChanged++);
    expect(await app.invoke('githubStatus', {})).toMatchObject({ tokenSet: true, source: 'stored', registered: true });
    await client.callTool({ name: 'toolset_enable', arguments: { toolset: 'github' } });
    const r = await client.callTool({ name: 'github_get_user', arguments: {} });
    expect(r.structuredContent).toMatchObject({ login: 'octokit-fixture-user-a' });
    expect(gh.received.at(-1)?.authorization).toBe(`token ${TOKEN}`);
  });

  it('never writes the token into the logs', () => {
    for (const log of readdirSync(join(userData, 'logs')))
      expect(readFileSync(join(userData, 'logs', log), 'utf8')).not.toContain(TOKEN);
    expect(app.stderr()).not.toContain(TOKEN);
  });

  it('removes the sealed file, unregisters the GitHub tools on Remove, announced with tools/list_changed', async () => {
    const before = listChanged;
    const status = await app.invoke('setGithubToken', { token: null });
    expect(status).toMatchObject({ tokenSet: false, source: 'none', registered: false });
    await expect.poll(() => listChanged).toBeGreaterThan(before);
    expect(await githubTools(client)).toEqual([]);
    expect(existsSync(sealedFile(userData))).toBe(false);
  });
});

describe('a keychain that lost its key', () => {
  it('opens nothing: the token reads as not set and no GitHub tool is registered', async () => {
    const userData = freshDataDir();
    let app = await start(userData, KEYRING);
    await app.invoke('setGithubToken', { token: TOKEN });
    await quit(app);
    app = await start(userData, { ...KEYRING, TOOLGATE_STANDIN_KEYRING: 'a-new-keyring-after-a-reset' });
    expect(await app.invoke('githubStatus', {})).toMatchObject({ tokenSet: false, source: 'none', registered: false });
    await quit(app);
  });
});

describe('with no keyring (basic_text), the app says so and keeps a 0600 file', () => {
  let userData: string;

  it('warns plainly in the status that the token would not be encrypted', async () => {
    userData = freshDataDir();
    const app = await start(userData, NO_KEYRING);
    const status = await app.invoke('githubStatus', {});
    expect(status.storage).toBe('a file in the data dir, readable by its owner only');
    expect(status.storageWarning).toMatch(/^No keyring \(Secret Service or KWallet\) was found/);
    expect(status.storageWarning).toContain('Toolgate does not count that as encryption');
    expect(status.storageWarning).toContain(
      'kept unencrypted in a file of the data dir that only your user account can read',
    );
    await app.invoke('setGithubToken', { token: TOKEN });
    expect(statSync(plainFile(userData)).mode & 0o777).toBe(0o600);
    expect(existsSync(sealedFile(userData))).toBe(false);
    await quit(app);
  });

  it('moves the token into the keychain at the first start that has one, leaving no unencrypted copy', async () => {
    const app = await start(userData, KEYRING);
    const status = await app.invoke('githubStatus', {});
    expect(status).toMatchObject({ tokenSet: true, source: 'stored', registered: true });
    expect(status.storageWarning).toBeUndefined();
    expect(existsSync(plainFile(userData))).toBe(false);
    expect(readFileSync(sealedFile(userData)).includes(Buffer.from(TOKEN))).toBe(false);
    await quit(app);
  });

  it('says the same when the OS offers no encryption at all', async () => {
    const app = await start(freshDataDir(), { TOOLGATE_STANDIN_STORAGE_BACKEND: 'unavailable' });
    expect((await app.invoke('githubStatus', {})).storageWarning).toMatch(/^The OS keychain is not available/);
    await quit(app);
  });
});
