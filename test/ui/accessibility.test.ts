/**
 * Rule: every page is usable by keyboard and screen reader: each control has a name, focus is
 * visible, the navigation marks the current page, the theme follows the OS, and no page is ever
 * blank (with no device, no browser and no terminal yet, the Devices, Browser and Terminals pages say how to get one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UiHarness, startUiHarness } from './support/ui-harness';
import { unnamedControls } from './support/unnamed-controls';

const PAGES = [
  'overview',
  'tools/calculate',
  'traces',
  'latency',
  'breakers',
  'approvals',
  'shortcuts',
  'skills',
  'devices',
  'browser',
  'terminals',
  'settings',
];

describe('Accessibility and themes', () => {
  let h: UiHarness;
  beforeAll(async () => {
    h = await startUiHarness();
  });
  afterAll(async () => h?.close());

  it('names every control on every page and marks the current page in the navigation', async () => {
    for (const route of PAGES) {
      await h.open(route);
      await expect.poll(() => h.page.locator('main .loading').count(), { timeout: 30_000 }).toBe(0);
      expect({ route, unnamed: await unnamedControls(h.page) }).toEqual({ route, unnamed: [] });
      const current = await h.page.locator('nav a[aria-current="page"]').textContent();
      expect(current?.toLowerCase()).toContain(route.split('/')[0]);
    }
  });

  it('never shows a blank panel: each page has a heading and content', async () => {
    for (const route of PAGES) {
      await h.open(route);
      await expect.poll(() => h.page.locator('main .loading').count(), { timeout: 30_000 }).toBe(0);
      const text = (await h.page.locator('main').innerText()).trim();
      expect(text.split('\n').length, route).toBeGreaterThan(2);
    }
  });

  it('shows honest empty states for devices and browser', async () => {
    await h.open('devices');
    await h.page.getByText('No Android device attached.').waitFor();
    await h.open('browser');
    await h.page.getByText('Not started: the first browser tool call launches it.').waitFor();
  });

  it('moves through the app by keyboard with a visible focus ring', async () => {
    // A fresh load: nothing focused yet, so the first Tab lands on the skip link.
    await h.page.goto('about:blank');
    await h.open('overview');
    await h.page.keyboard.press('Tab');
    expect(await h.page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await h.page.keyboard.press('Tab');
    const focused = await h.page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { text: el.textContent, outline: style.outlineStyle, width: style.outlineWidth };
    });
    expect(focused.text).toBe('Overview');
    expect(focused.outline).not.toBe('none');
    await h.page.keyboard.press('Tab');
    await h.page.keyboard.press('Enter');
    await h.page.waitForURL(/#\/tools$/);
    // Arriving on a page puts focus on its title, so the next Tab starts in the page.
    await h.page.waitForFunction(
      () => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Tools',
    );
  });

  it('follows the OS theme: dark colours when the OS prefers dark', async () => {
    const light = await h.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await h.page.emulateMedia({ colorScheme: 'dark' });
    await h.open('overview');
    const dark = await h.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(dark).not.toBe(light);
    await h.shot('overview-dark');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
