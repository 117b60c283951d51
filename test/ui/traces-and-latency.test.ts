/**
 * Rule: every call an agent makes shows up live on the Traces page (one row per attempt, with
 * retries, backoff, error text and argument digest per call, the arguments themselves only from
 * memory), can be filtered and exported; the
 * Latency page turns the same calls into histograms and percentiles and keeps them current.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from './support/closed-port';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness } from './support/ui-harness';

describe('Traces and Latency pages', () => {
  let h: UiHarness;
  let deadUrl: string;
  const rows = () => h.page.locator('.span-row-holder');

  beforeAll(async () => {
    h = await startUiHarness();
    deadUrl = await closedPortUrl();
  });
  afterAll(async () => h?.close());

  it('says there is nothing yet before the first call', async () => {
    await h.open('traces');
    await h.page.getByText('No spans yet.').waitFor();
  });

  it('streams a failing call in live, one row per attempt', async () => {
    const result = await h.mcp.callTool({ name: 'web_fetch', arguments: { url: deadUrl } });
    expect(result.isError).toBe(true);
    await eventually(async () => expect(await rows().count()).toBeGreaterThanOrEqual(2));
    const texts = await rows().allTextContents();
    expect(texts.every((t) => t.includes('web_fetch') && t.includes('EXECUTION_FAILED'))).toBe(true);
  });

  it('opens a call to show its attempts with backoff, error slug and argument digest', async () => {
    await rows().first().locator('button').click();
    const detail = h.page.getByTestId('call-detail');
    await detail.waitFor();
    const attempts = detail.getByRole('table', { name: 'Attempts' }).locator('tbody tr');
    await eventually(async () => expect(await attempts.count()).toBeGreaterThanOrEqual(2));
    const first = (await attempts.first().textContent()) ?? '';
    expect(first).toContain('EXECUTION_FAILED');
    expect(first).toMatch(/\d+ ms|\d+\.\d+ s/);
    const digest = (await detail.getByRole('table', { name: 'Arguments digest' }).textContent()) ?? '';
    expect(digest).toContain('url');
    expect(digest).toContain(String(deadUrl.length));
    // What is stored never carries the argument itself: only the memory block shows it, marked so.
    expect(digest).not.toContain(deadUrl);
    expect(await detail.getByRole('table', { name: 'Attempts' }).textContent()).not.toContain(deadUrl);
    const remembered = detail.getByTestId('remembered-args');
    expect(await remembered.textContent()).toContain(deadUrl);
    expect(await remembered.textContent()).toContain('Kept in memory only: never written or exported');
    await h.shot('traces');
  });

  it('filters by outcome, by tool and by call id', async () => {
    for (const expression of ['1 + 1', '2 + 2', '3 + 3'])
      await h.mcp.callTool({ name: 'calculate', arguments: { expression } });
    await eventually(async () =>
      expect((await rows().allTextContents()).filter((t) => t.includes('calculate'))).toHaveLength(3),
    );

    await h.page.getByLabel('Outcome').selectOption('error');
    await eventually(async () =>
      expect((await rows().allTextContents()).every((t) => t.includes('web_fetch'))).toBe(true),
    );

    await h.page.getByLabel('Outcome').selectOption('');
    await h.page.getByLabel('Tool').selectOption('calculate');
    await eventually(async () => expect(await rows().count()).toBe(3));
    expect((await rows().allTextContents()).every((t) => t.includes('calculate'))).toBe(true);

    const oneCall =
      ((await rows().first().locator('button').getAttribute('aria-label')) ?? '').match(/call (\S+)$/)?.[1] ?? '';
    expect(oneCall).not.toBe('');
    await h.page.getByLabel('Call id').fill(oneCall);
    await eventually(async () => expect(await rows().count()).toBe(1));
  });

  it('exports the filtered spans as a JSON download', async () => {
    const [download] = await Promise.all([
      h.page.waitForEvent('download'),
      h.page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const file = await download.path();
    const data = JSON.parse(readFileSync(file, 'utf8')) as { exportedAt: number; spans: Array<{ toolId: string }> };
    expect(data.spans).toHaveLength(3);
    expect(data.spans.every((s) => s.toolId === 'calculate')).toBe(true);
    expect(download.suggestedFilename()).toMatch(/^toolgate-spans-.*\.json$/);
  });

  it('shows per-tool percentiles and a histogram, updated by new calls without a reload', async () => {
    await h.open('latency/calculate');
    const detail = h.page.getByTestId('latency-detail');
    await detail.waitFor();
    await h.page.getByTestId('latency-histogram').waitFor();
    const row = h.page.getByRole('row').filter({ hasText: 'calculate' });
    expect(await row.locator('td').first().textContent()).toBe('3');
    expect(await detail.textContent()).toMatch(/p50.*p95.*p99/);

    await h.mcp.callTool({ name: 'calculate', arguments: { expression: '4 + 4' } });
    await eventually(async () => expect(await row.locator('td').first().textContent()).toBe('4'));
    await h.page.getByTestId('success-rate-chart').waitFor();
    await h.shot('latency');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
