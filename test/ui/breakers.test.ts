/**
 * Rule: a tool that keeps failing with EXECUTION_FAILED opens its breaker, and the Breakers page
 * shows it at once: the OPEN badge, the CLOSED → OPEN transition on its timeline, the cooldown
 * counting down and the last error, and which origin it is about; Reset closes it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerKey } from '../../tools/core/pipeline';
import { closedPortUrl } from './support/closed-port';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

describe('Breakers page', () => {
  let h: UiHarness;
  let deadUrl: string;
  /** web_fetch keeps a breaker per origin, named by its digest. */
  let key: string;
  beforeAll(async () => {
    h = await startUiHarness();
    deadUrl = await closedPortUrl();
    key = breakerKey('web_fetch', new URL(deadUrl).origin);
  });
  afterAll(async () => h?.close());

  it('says every breaker is closed before anything failed', async () => {
    await h.open('breakers');
    await h.page.getByText('Every breaker is closed and none has tripped.').waitFor();
  });

  it('shows a breaker forced open by repeated failures on its timeline, with the cooldown ticking', async () => {
    let refused = '';
    for (let i = 0; i < 8 && !refused; i++) {
      const result = await h.mcp.callTool({ name: 'web_fetch', arguments: { url: deadUrl } });
      if (textOf(result).includes('CIRCUIT_OPEN')) refused = textOf(result);
    }
    expect(refused).toContain('CIRCUIT_OPEN');

    const card = h.page.getByTestId(`breaker-${key}`);
    await card.waitFor();
    await card.locator('.badge', { hasText: 'OPEN' }).waitFor();
    expect(await card.textContent()).toContain(`target ${key.split('@')[1]}`);
    // Its origin, which the host holds in memory for the person, next to the digest it keeps.
    await eventually(async () =>
      expect(await card.getByTestId('breaker-target-name').textContent()).toBe(new URL(deadUrl).origin),
    );
    const timeline = card.getByTestId(`timeline-${key}`);
    await eventually(async () => expect(await timeline.getByRole('list').textContent()).toContain('CLOSED → OPEN'));
    await eventually(async () => expect(await card.textContent()).toContain('EXECUTION_FAILED'));

    const cooldown = card.getByTestId('cooldown');
    const before = (await cooldown.textContent()) ?? '';
    expect(before).toMatch(/Probe admitted in \d+:\d\d/);
    await eventually(async () => expect(await cooldown.textContent()).not.toBe(before), 5_000);
    expect(await h.page.getByRole('link', { name: /Breakers/ }).textContent()).toContain('1');
    await h.shot('breakers');
  });

  it('closes the breaker with Reset and lets calls through again', async () => {
    const card = h.page.getByTestId(`breaker-${key}`);
    await card.getByRole('button', { name: `Reset the breaker of ${key}` }).click();
    await card.locator('.badge', { hasText: /^CLOSED$/ }).waitFor();
    const result = await h.mcp.callTool({ name: 'web_fetch', arguments: { url: deadUrl } });
    expect(textOf(result)).not.toContain('CIRCUIT_OPEN');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
