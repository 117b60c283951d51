/**
 * Rule: where the desktop app finds no keyring (Linux's basic_text backend, whose "encryption" is a
 * key built into Chromium), Settings says in words that a GitHub token is not kept in the OS
 * keychain and where it is kept instead, before and after one is set; the token set there is
 * never shown again nor left in the field, and Remove takes it away.
 *
 * The host gets the desktop app's token store (electron/main/github-token-keychain.ts) over
 * Chromium's Linux sealing with no keyring (test/support/chromium-safe-storage.cjs), in real Chromium.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SafeStorageApi, desktopTokenStore } from '../../electron/main/github-token-keychain';
import { type UiHarness, startUiHarness } from './support/ui-harness';

const TOKEN = 'ghp_noKeyringSecret7c2a9e4b1d8f3a6c0e5b2d9';
const { chromiumSafeStorage } = require('../support/chromium-safe-storage.cjs') as {
  chromiumSafeStorage(env: object): SafeStorageApi;
};

describe('Settings without a keyring', () => {
  let h: UiHarness;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-ui-keyring-'));
    const safeStorage = chromiumSafeStorage({ TOOLGATE_STANDIN_STORAGE_BACKEND: 'basic_text' });
    h = await startUiHarness({ dataDir, githubTokens: desktopTokenStore(safeStorage, dataDir, 'linux') });
  });
  afterAll(async () => h?.close());

  it('says plainly that a token would not be in the OS keychain, and why', async () => {
    await h.open('settings');
    const warning = h.page.getByTestId('github-storage-warning');
    await warning.waitFor();
    const text = (await warning.textContent()) ?? '';
    expect(text).toMatch(/^Not in the OS keychain\. No keyring \(Secret Service or KWallet\) was found/);
    expect(text).toContain('Toolgate does not count that as encryption');
    expect(text).toContain('restart Toolgate');
  });

  it('keeps a token set there in the 0600 file, shows only "set", and empties the field', async () => {
    const section = h.page.getByTestId('github-settings');
    await section.getByLabel('Personal access token').fill(TOKEN);
    await section.getByRole('button', { name: 'Set token' }).click();
    await expect.poll(() => section.getByTestId('github-token-state').textContent()).toBe('set');
    await section.getByText('kept in a file in the data dir, readable by its owner only').waitFor();
    expect(await section.getByLabel('Replace the token').inputValue()).toBe('');
    expect(await section.getByRole('button', { name: 'Set token' }).isDisabled()).toBe(true);
    expect(await h.page.content()).not.toContain(TOKEN);
    expect(readFileSync(join(h.dataDir, 'github-token'), 'utf8')).toBe(TOKEN);
    await h.page.getByTestId('github-storage-warning').waitFor();
    await h.shot('settings-github-no-keyring');
  });

  it('removes it with Remove', async () => {
    const section = h.page.getByTestId('github-settings');
    await section.getByRole('button', { name: 'Remove token' }).click();
    await expect.poll(() => section.getByTestId('github-token-state').textContent()).toBe('not set');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
