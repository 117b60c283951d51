/**
 * Rule: the Settings page edits the host's settings honestly: every contract setting is listed in
 * its group with the contract's help text and its saved value or "default"; a value the host
 * refuses is shown on the field it names, the person's input stays, and nothing at all is saved;
 * Save sends only the keys that changed, and a saved restart-required change says it applies after
 * a restart; Reset to default sends null and the key is back to its default.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Settings } from '../../shared/contract';
import { changesFrom, fieldErrorsFrom, wireValueOf } from '../../renderer/src/pages/settings/settings-draft';
import { SETTING_KEYS, settingGroups } from '../../renderer/src/pages/settings/settings-fields';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

const GROUPS = [
  'Workspace',
  'Devices',
  'Browser',
  'Network',
  'Skill sources',
  'GitHub',
  'Approvals',
  'Terminals',
  'Telemetry export',
];

/** A search provider following web_search's contract, on 127.0.0.1. */
async function serveSearchProvider(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        results: [
          { title: `Local answer for ${q}`, url: 'https://example.test/a', snippet: 'from the local provider' },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/search` };
}

describe('Settings form logic', () => {
  const fields = settingGroups().flatMap((g) => g.fields);
  const field = (key: string) => {
    const found = fields.find((f) => f.key === key);
    if (!found) throw new Error(`no field ${key}`);
    return found;
  };

  it('gives every field of the host message to the field it names, and nothing to fields it does not name', () => {
    const message = 'Invalid settings: adbPort: Too big: expected number to be <=65535; otlpEndpoint: Invalid URL';
    expect(fieldErrorsFrom(message, SETTING_KEYS)).toEqual({
      adbPort: 'Too big: expected number to be <=65535',
      otlpEndpoint: 'Invalid URL',
    });
    expect(fieldErrorsFrom('Request failed: the host could not be reached.', SETTING_KEYS)).toEqual({});
    expect(fieldErrorsFrom('Unknown setting(s): colour. Known: workspaceRoot, adbHost.', SETTING_KEYS)).toEqual({});
  });

  it('sends unreadable numbers as typed so the host names the field, and empty inputs as null', () => {
    expect(wireValueOf(field('adbPort'), '12x')).toBe('12x');
    expect(wireValueOf(field('adbPort'), ' 5038 ')).toBe(5038);
    expect(wireValueOf(field('otlpEndpoint'), '  ')).toBeNull();
    expect(wireValueOf(field('browserHeadless'), 'default')).toBeNull();
    expect(wireValueOf(field('browserHeadless'), 'off')).toBe(false);
  });

  it('leaves out edits that equal the saved value', () => {
    expect(
      changesFrom(
        fields,
        { adbPort: 5038, browserHeadless: true },
        { adbPort: '5038', browserHeadless: 'on', adbHost: '' },
      ),
    ).toEqual({});
    expect(changesFrom(fields, { adbPort: 5038 }, { adbPort: '', adbHost: 'lab-7' })).toEqual({
      adbPort: null,
      adbHost: 'lab-7',
    });
  });

  it('places every contract setting in exactly one group', () => {
    expect(fields.map((f) => f.key).sort()).toEqual([...SETTING_KEYS].sort());
    expect(settingGroups().some((g) => g.id === 'other')).toBe(false);
  });
});

describe('Settings page against the real host', () => {
  let h: UiHarness;
  let provider: { server: Server; url: string };
  /** Bodies of the updateSettings requests the page sent. */
  const sent: unknown[] = [];

  const row = (key: string) => h.page.getByTestId(`setting-${key}`);
  const savedText = (key: string) => h.page.getByTestId(`setting-${key}-saved`).textContent();
  const saved = async () => (await h.host.api.getSettings({})).settings;

  beforeAll(async () => {
    provider = await serveSearchProvider();
    h = await startUiHarness();
    h.page.on('request', (r) => {
      if (r.url().endsWith('/api/rpc/updateSettings')) sent.push(r.postDataJSON());
    });
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => provider?.server.close(resolve));
  });

  it('refuses adbPort 70000: the host message shows on that field, the input keeps it, nothing is saved', async () => {
    await h.open('settings');
    const port = h.page.getByLabel('adb server port');
    await port.fill('70000');
    // A valid change in the same save must not be stored either: the host applies all or nothing.
    await h.page.getByLabel('Web search endpoint').fill(provider.url);
    await h.page.getByRole('button', { name: 'Save' }).click();

    const error = h.page.getByTestId('setting-adbPort-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/65535/);
    expect(await port.inputValue()).toBe('70000');
    expect(await port.getAttribute('aria-invalid')).toBe('true');
    expect(await h.page.evaluate(() => document.activeElement?.id)).toBe('setting-adbPort');
    expect(await h.page.getByLabel('Web search endpoint').inputValue()).toBe(provider.url);
    expect(await h.page.getByTestId('setting-webSearchEndpoint-error').count()).toBe(0);
    expect(await h.page.getByTestId('settings-outcome').textContent()).toContain('Nothing was saved');
    expect(await saved()).toEqual({});
    expect(await savedText('adbPort')).toBe('default');

    await h.page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await port.inputValue()).toBe('');
    expect(await h.page.getByTestId('setting-adbPort-error').count()).toBe(0);
  });

  it('lists every contract setting in its group with the help text and "default" while unset', async () => {
    await h.open('settings');
    await h.page.getByTestId('settings-all-default').waitFor();
    expect(await h.page.locator('.settings-group > legend').allTextContents()).toEqual(GROUPS);
    for (const key of Object.keys(Settings.shape) as Array<keyof Settings>) {
      expect(await row(key).locator('.help').textContent(), key).toBe(Settings.shape[key].description);
      expect(await savedText(key), key).toBe('default');
    }
    expect(await h.page.getByTestId('setting-browserHeadless-tri-state').textContent()).toBe('default');
    expect(await h.page.getByLabel('Headless browser').evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(
      true,
    );
    expect(await h.page.getByLabel('Approval timeout (seconds)').getAttribute('type')).toBe('number');
    expect(await h.page.locator('nav a').last().textContent()).toBe('Settings');
  });

  it('saves only changed keys by keyboard; web search uses a new endpoint at once; restart ones marked', async () => {
    sent.length = 0;
    await h.open('settings');
    // The tri-state checkbox by keyboard: default → on → off.
    const headless = h.page.getByLabel('Headless browser');
    await headless.focus();
    await h.page.keyboard.press('Space');
    expect(await h.page.getByTestId('setting-browserHeadless-tri-state').textContent()).toBe('on');
    await h.page.keyboard.press('Space');
    expect(await h.page.getByTestId('setting-browserHeadless-tri-state').textContent()).toBe('off');
    // Typed and then put back: not a change, so not sent.
    await h.page.getByLabel('adb server host').fill('10.0.0.9');
    await h.page.getByLabel('adb server host').fill('');
    expect(
      await row('adbHost')
        .getByRole('button', { name: /^Reset to default/ })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    const search = h.page.getByLabel('Web search endpoint');
    await search.fill(provider.url);
    expect(await h.page.getByTestId('settings-unsaved').textContent()).toBe('2 unsaved changes');
    await search.press('Enter');

    await eventually(async () =>
      expect(await saved()).toEqual({ webSearchEndpoint: provider.url, browserHeadless: false }),
    );
    expect(sent).toEqual([{ changes: { webSearchEndpoint: provider.url, browserHeadless: false } }]);
    await h.page.getByTestId('setting-browserHeadless-restart').waitFor();
    expect(await h.page.getByTestId('setting-browserHeadless-restart').textContent()).toBe('applies after a restart');
    expect(await h.page.getByTestId('setting-webSearchEndpoint-restart').count()).toBe(0);
    expect(await savedText('webSearchEndpoint')).toBe(provider.url);
    expect(await savedText('browserHeadless')).toBe('off');
    expect(await h.page.getByTestId('settings-outcome').textContent()).toBe(
      'Saved 2 settings. One applies after a restart.',
    );
    expect(await h.page.getByTestId('settings-unsaved').textContent()).toBe('No unsaved changes');

    const answer = await h.mcp.callTool({ name: 'web_search', arguments: { query: 'toolgate' } });
    expect(answer.isError).toBeFalsy();
    expect(textOf(answer)).toContain('Local answer for toolgate');
    // Tall enough for the whole form, so the sticky save bar sits below it in the full-page picture.
    await h.page.setViewportSize({ width: 1400, height: 1600 });
    await h.shot('settings');
  });

  it('returns a key to its default with Reset to default, which sends null', async () => {
    sent.length = 0;
    await row('webSearchEndpoint')
      .getByRole('button', { name: /^Reset to default/ })
      .click();
    await eventually(async () => expect(await saved()).toEqual({ browserHeadless: false }));
    expect(sent).toEqual([{ changes: { webSearchEndpoint: null } }]);
    await eventually(async () => expect(await savedText('webSearchEndpoint')).toBe('default'));
    expect(await h.page.getByLabel('Web search endpoint').inputValue()).toBe('');

    // Back to the value the page opened with: the restart note goes away.
    await row('browserHeadless')
      .getByRole('button', { name: /^Reset to default/ })
      .click();
    await eventually(async () => expect(await saved()).toEqual({}));
    await eventually(async () => expect(await h.page.getByTestId('setting-browserHeadless-restart').count()).toBe(0));
    expect(await h.page.getByTestId('setting-browserHeadless-tri-state').textContent()).toBe('default');
  });

  it('follows the dark theme through the shared colour variables', async () => {
    await h.page.emulateMedia({ colorScheme: 'dark' });
    const panel = await h.page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--panel').trim(),
    );
    expect(panel).toBe('#171b22');
    expect(
      await h.page
        .locator('.settings-group')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(23, 27, 34)');
    await h.shot('settings-dark');
    await h.page.emulateMedia({ colorScheme: 'light' });
  });

  it('logs no script errors (the refused save is an expected HTTP 400)', () => {
    expect(h.problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
  });
});
