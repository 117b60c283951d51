/**
 * Rule: after a mixed run of a few hundred calls from two agents (workflows repeated, the caller's
 * mistakes, a person's denials, a dead server opening a breaker, a rate limit, batches, a virtual
 * phone), the pages say what happened without help, in real Chromium: the Overview counts calls
 * by how they ended and lists as failing only the tool whose runs fail, with its error's words; the
 * Latency page keeps calls and attempts apart and refusals out of the run times, its charts with
 * legends and labelled axes; the Traces detail of a failed call shows its attempts, error text,
 * backoff and its breaker at the time; Shortcuts suggests the workflows really repeated, with their
 * evidence and one parameter per argument; the Breakers filter does what it says; Try it offers the
 * attached phone for `serial`. Screenshots go to test-output/screenshots/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from './support/closed-port';
import { eventually } from './support/eventually';
import { type UiHarness, connectMcp, startUiHarness, textOf } from './support/ui-harness';

describe('the pages after a mixed run of a few hundred calls', () => {
  let h: UiHarness;
  let phoneAgent: Client;
  let serial: string;
  let deadUrl: string;
  let calls = 0;
  const failedFetches: string[] = [];

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
    calls++;
    return client.callTool({ name, arguments: args });
  }

  async function denyNext(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [item] = await h.host.api.pendingApprovals({});
      if (item) {
        await h.host.api.decideApproval({ approvalId: item.approvalId, decision: 'deny', reason: 'not on my files' });
        return;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('no approval became pending');
  }

  beforeAll(async () => {
    h = await startUiHarness({ virtualDevice: true, rateLimitPerMinute: { uuid_generate: 30 } });
    const devices = await eventually(async () => {
      const online = (await h.host.api.devices({})).filter((d) => d.state === 'device');
      if (!online.length) throw new Error('the virtual phone is not online yet');
      return online;
    }, 60_000);
    serial = devices[0]!.serial;
    phoneAgent = await connectMcp(h.host, 'phone-agent');
    deadUrl = `${await closedPortUrl()}health`;

    // Agent 1: a three-step workflow, 40 times; bursts of uuid_generate past its limit of 30 a minute.
    for (let i = 0; i < 40; i++) {
      await call(h.mcp, 'uuid_generate', {});
      await call(h.mcp, 'calculate', { expression: `${i} * 3 + 1` });
      await call(h.mcp, 'text_transform', { text: `run ${i}`, operation: 'upper' });
    }
    for (let i = 0; i < 20; i++) await call(h.mcp, 'uuid_generate', {});
    // Its mistakes: a number where text is wanted, files that are not there.
    for (let i = 0; i < 12; i++) await call(h.mcp, 'calculate', { expression: i });
    for (let i = 0; i < 8; i++) await call(h.mcp, 'read_file', { path: `missing-${i}.txt` });
    // Batches that pick a field of an earlier step.
    for (let i = 0; i < 6; i++)
      await call(h.mcp, 'tool_batch_run', {
        steps: [
          { tool: 'json_transform', args: { data: { rows: [{ n: i }, { n: i + 1 }] }, pipeline: [] } },
          { tool: 'calculate', args: { expression: '{0.rows[1].n} * 10' } },
        ],
      });
    // A dead server: five failed calls (three attempts each) open web_fetch's breaker, then refusals.
    for (let i = 0; i < 8; i++) {
      const result = await call(h.mcp, 'web_fetch', { url: deadUrl });
      if (!textOf(result).includes('CIRCUIT_OPEN'))
        failedFetches.push((result as { _meta: Record<string, string> })._meta['toolgate/callId']!);
    }
    // Another dead address, failing twice: a breaker that counted failures but never tripped.
    const other = `${await closedPortUrl()}ping`;
    for (let i = 0; i < 2; i++) await call(h.mcp, 'http_request', { url: other, method: 'GET' });
    // A person denies three file deletions.
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(h.workspace, `keep-${i}.txt`), 'x');
      const pending = call(h.mcp, 'delete_file', { path: `keep-${i}.txt` });
      await denyNext();
      await pending;
    }
    // Agent 2, on the phone: a two-step workflow, 30 times, and plain calls.
    for (let i = 0; i < 30; i++) {
      await call(phoneAgent, 'get_device_info', { serial });
      await call(phoneAgent, 'calculate', { expression: `${i} + 100` });
    }
    for (let i = 0; i < 40; i++) await call(phoneAgent, 'datetime', { operation: 'now' });
    for (let i = 0; i < 25; i++)
      await call(phoneAgent, 'regex_extract', { text: `order ${i} shipped`, pattern: 'order (\\d+)' });
  }, 420_000);
  afterAll(async () => {
    await phoneAgent?.close().catch(() => undefined);
    await h?.close();
  });

  it('made a few hundred calls', () => {
    expect(calls).toBeGreaterThanOrEqual(300);
  });

  it('Overview: counts calls by how they ended, and lists only the tool whose runs fail', async () => {
    await h.open('overview');
    const summary = h.page.getByTestId('calls-window');
    await eventually(async () => expect(await summary.textContent()).toMatch(/tool failures/));
    const text = (await summary.textContent()) ?? '';
    expect(text).toMatch(
      new RegExp(
        String.raw`^\d+ calls in the last 30 minutes: \d+ succeeded, 7 tool failures, 20 caller mistakes, ` +
          String.raw`3 denied by a person, \d+ refused \(`,
      ),
    );
    await h.page.getByTestId('activity-chart').waitFor();
    expect(await h.page.locator('.recharts-legend-item-text').allTextContents()).toEqual(
      expect.arrayContaining(['succeeded', 'tool failed', 'caller mistake', 'denied by a person']),
    );
    expect(await h.page.locator('.recharts-label').allTextContents()).toEqual(
      expect.arrayContaining(['calls / min', 'minute (local time)']),
    );
    const failing = await h.page.getByTestId('failing-tool').allTextContents();
    expect(await h.page.getByTestId('failing-tool').locator('a code').allTextContents()).toEqual([
      'web_fetch',
      'http_request',
    ]);
    expect(failing[0]).toMatch(/breaker OPEN.*5 of 8 calls failed.*EXECUTION_FAILED .*refused/i);
    for (const notFailing of ['calculate', 'read_file', 'delete_file', 'uuid_generate'])
      expect(failing.join(' ')).not.toContain(notFailing);
    await h.shot('overview-after-mixed-run');
  });

  it('Latency: calls and attempts apart, refusals outside the run times, charts read without help', async () => {
    await h.open('latency/web_fetch');
    const detail = h.page.getByTestId('latency-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('stat-calls').textContent()).toBe('8');
    expect(await detail.getByTestId('stat-attempts').textContent()).toBe('15 (10 retries)');
    expect(await detail.getByTestId('call-outcomes').textContent()).toBe(
      'How the 8 calls ended: 5 tool failures, 3 refused (breaker, limiter or environment).',
    );
    const histogram = detail.getByTestId('latency-histogram');
    expect(await histogram.locator('figcaption').textContent()).toBe(
      '15 attempts by how long the tool ran. 3 refused calls never ran and are not in it.',
    );
    expect(await histogram.locator('.recharts-label').allTextContents()).toEqual([
      'run time of one attempt',
      'attempts',
    ]);
    const uuidRow = h.page.getByRole('row').filter({ hasText: 'uuid_generate' });
    const uuidCells = await uuidRow.locator('td').allTextContents();
    // Every call either ran or was refused by the limiter, which never counts as a run.
    expect(Number(uuidCells[0])).toBe(60);
    expect(Number(uuidCells[6])).toBeGreaterThan(0);
    expect(Number(uuidCells[1]) + Number(uuidCells[6])).toBe(60);
    // A number and its unit stay on one line in every cell.
    const wrapped = await h.page
      .locator('td.num')
      .evaluateAll(
        (cells) =>
          cells.filter((c) => c.getBoundingClientRect().height > 2 * Number.parseFloat(getComputedStyle(c).lineHeight))
            .length,
      );
    expect(wrapped).toBe(0);
    await h.shot('latency-after-mixed-run');
  });

  it('Traces: a failed call shows its attempts, error text, backoff and its breaker at the time', async () => {
    const opening = failedFetches[4]!;
    await h.open(`traces/${opening}`);
    const detail = h.page.getByTestId('call-detail');
    await detail.getByTestId('failure-text').waitFor();
    expect(await detail.getByTestId('failure-text').textContent()).toMatch(/ECONNREFUSED|refused/i);
    expect(await detail.getByRole('table', { name: 'Attempts' }).locator('tbody tr').count()).toBe(3);
    expect(await detail.getByTestId('attempt-error-text').count()).toBe(3);
    const breaker = (await detail.getByTestId('breaker-at-time').textContent()) ?? '';
    expect(breaker).toMatch(/at the start\s*CLOSED\s*after it\s*OPEN/);
    expect(breaker).toContain('CLOSED → OPEN');
    await h.shot('traces-detail-after-mixed-run');
  });

  it('Shortcuts: suggests the workflows really repeated, with their evidence, no self-pairs', async () => {
    await h.open('shortcuts');
    const cards = h.page.getByTestId('shortcut-suggestion');
    await cards.first().waitFor({ timeout: 15_000 });
    const titles = await cards.locator('h3').allTextContents();
    expect(titles).toContain('uuid_generate → calculate → text_transform');
    expect(titles).toContain('get_device_info → calculate');
    for (const t of titles) {
      const tools = t.split(' → ');
      expect(
        tools.some((x, i) => i > 0 && x === tools[i - 1]),
        t,
      ).toBe(false);
    }
    const phone = cards.filter({ hasText: 'get_device_info → calculate' }).first();
    expect(await phone.getByTestId('suggestion-evidence').textContent()).toMatch(
      /^30 times in this order, all steps successful, in 1 session; last seen/,
    );
    expect(await phone.textContent()).toContain('with parameters serial, expression');
    await h.shot('shortcuts-after-mixed-run');
    // The keys a precondition may name, and the ones with a reading now (the phone's).
    const keys = h.page.getByTestId('precondition-keys');
    await keys.locator('summary').click();
    const table = (await keys.getByRole('table', { name: 'Precondition keys' }).textContent()) ?? '';
    expect(table).toContain('device.<serial>.online');
    expect(table).toContain('browser.dialogOpen');
    expect(table).toContain(`device.${serial}.online`);
    expect(table).not.toContain('foreground.package');
  });

  it('Breakers: "show breakers that never tripped" does what it says', async () => {
    await h.open('breakers');
    const cards = h.page.locator('.breaker-card');
    await cards.first().waitFor();
    expect(await cards.locator('h2 a code').allTextContents()).toEqual(['web_fetch']);
    await h.page.getByLabel(/Show breakers that never tripped/).check();
    await eventually(async () =>
      expect(await cards.locator('h2 a code').allTextContents()).toEqual(
        expect.arrayContaining(['web_fetch', 'http_request']),
      ),
    );
    expect(await h.page.getByTestId('cooldown').first().textContent()).toMatch(
      /Probe admitted in \d+:\d\d \(at \d\d:\d\d:\d\d: the first call after that is the probe\)/,
    );
    await h.shot('breakers-after-mixed-run');
  });

  it('Try it: offers the attached phone for serial', async () => {
    await h.open('tools/get_device_info');
    const field = h.page.locator('select#tool-get_device_info-serial');
    await field.waitFor();
    expect(await field.locator('option').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(serial)]),
    );
    await field.selectOption(serial);
    await h.page.getByRole('button', { name: 'Try it' }).click();
    await h.page.locator('[data-testid="call-outcome"].ok').waitFor();
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
