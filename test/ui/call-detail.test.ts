/**
 * Rule: a failing tool explains itself in the Traces detail, in real Chromium against a host
 * driving a real browser. A browser_navigate to a page the server answers 404 with no page fails,
 * and its detail shows the HTTP status and the error's own words with the URL as a placeholder
 * (`‹url›`) in what is stored, and no argument text in the database; while the host runs, the
 * arguments from memory show the URL itself, marked as kept in memory only. From there the call
 * runs again (traced as a replay) or opens in Try it with its arguments; the bug report downloads
 * as one JSON file without argument text. The Browser page shows each action's outcome: a refused
 * file:///etc/passwd does not look like a success.
 */
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLeak } from '../support/argument-runs';
import { writtenDown } from '../security/support/written-down';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

const GONE_PATH = '/archive/q3-board-minutes-7c1f/gone?session=s3ss10n-77aa';

describe('the Traces detail of a failing browser_navigate', () => {
  let h: UiHarness;
  let server: Server;
  let base: string;
  let url: string;
  let callId: string;
  const detail = () => h.page.getByTestId('call-detail');

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/archive/')) {
        res.writeHead(404).end(); // no page: Chrome shows its own error page
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home</title><h1>Home</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    url = `${base}${GONE_PATH}`;
    h = await startUiHarness();
    expect((await h.mcp.callTool({ name: 'browser_navigate', arguments: { url: `${base}/` } })).isError).toBeFalsy();
    const failed = await h.mcp.callTool({ name: 'browser_navigate', arguments: { url } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('HTTP 404');
    callId = (failed._meta as Record<string, string>)['toolgate/callId']!;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows the HTTP status and the error’s own words, the URL a placeholder in what is stored', async () => {
    await h.open(`traces/${callId}`);
    const failure = detail().getByTestId('failure-text');
    await failure.waitFor();
    const words = (await failure.textContent()) ?? '';
    expect(words).toContain('‹url› failed to load: the server answered HTTP 404 Not Found with no page to show');
    expect(words).not.toContain(GONE_PATH.slice(0, 20));
    expect(await detail().getByTestId('failure-hint').textContent()).toContain('check the URL');
    expect(await detail().getByTestId('call-result').textContent()).toContain('caller mistake');
    const [stored] = await h.host.api.listSpans({ callId, limit: 10 });
    expect(stored?.errorCode).toBe('NOT_FOUND');
    expect(stored?.errorText).toContain('‹url›');
    expect(stored?.errorText).toContain('HTTP 404');
  });

  it('writes no argument text into the database', () => {
    const stored = writtenDown(h.dataDir);
    expect(stored.files.some((f) => f.endsWith('toolgate.db-wal') || f.endsWith('toolgate.db'))).toBe(true);
    expect(findLeak(stored.text, [GONE_PATH])).toBeUndefined();
  });

  it('shows the URL itself from memory while the host runs, marked as never written or exported', async () => {
    const remembered = detail().getByTestId('remembered-args');
    expect(await remembered.textContent()).toContain(url);
    expect(await remembered.getByTestId('memory-note').textContent()).toBe(
      'Kept in memory only: never written or exported; gone when the host restarts.',
    );
    await h.shot('traces-detail-404');
  });

  it('runs the call again through the pipeline, as a replay', async () => {
    await detail().getByRole('button', { name: 'Run again' }).click();
    const result = detail().getByTestId('replay-result');
    await eventually(async () =>
      expect(await result.textContent()).toMatch(/Ran call \S+ again as call \S+: it failed with NOT_FOUND/),
    );
    const replayed = (await h.host.api.listSpans({ toolId: 'browser_navigate', limit: 10 })).find(
      (s) => s.requesterKind === 'replay',
    );
    expect(replayed?.errorText).toContain('HTTP 404');
    await eventually(async () =>
      expect(await detail().textContent()).toContain(`Run again as call ${replayed?.callId}`),
    );
  });

  it('opens the call in Try it with its arguments, to edit them first', async () => {
    await detail().getByRole('button', { name: 'Open in Try it' }).click();
    await h.page.getByTestId('try-it-draft').waitFor();
    expect(await h.page.getByTestId('try-it-draft').textContent()).toContain(`call ${callId}`);
    expect(await h.page.getByLabel(/^url/).inputValue()).toBe(url);
  });

  it('downloads a bug report of the whole story without argument text', async () => {
    await h.open(`traces/${callId}`);
    await detail().getByTestId('failure-text').waitFor();
    const [download] = await Promise.all([
      h.page.waitForEvent('download'),
      detail().getByRole('button', { name: 'Bug report' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`toolgate-call-${callId}.json`);
    const text = readFileSync(await download.path(), 'utf8');
    const report = JSON.parse(text) as { format: string; spans: Array<{ errorText?: string }>; tool: { id: string } };
    expect(report.format).toBe('toolgate-call-report/1');
    expect(report.tool.id).toBe('browser_navigate');
    expect(report.spans[0]?.errorText).toContain('HTTP 404');
    expect(findLeak(text, [GONE_PATH])).toBeUndefined();
  });

  it('shows on the Browser page which actions worked, failed and were refused', async () => {
    const refused = await h.mcp.callTool({ name: 'browser_navigate', arguments: { url: 'file:///etc/passwd' } });
    expect(textOf(refused)).toContain('PERMISSION_DENIED');
    await h.open('browser');
    const actions = h.page.getByTestId('browser-actions');
    await eventually(async () => expect(await actions.textContent()).toContain('file:///etc/passwd'), 15_000);
    const rows = await actions
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.children[1]?.textContent ?? '', tr.children[2]?.textContent ?? '']));
    const outcomeOf = (target: string) => rows.find(([t]) => t === target)?.[1];
    expect(outcomeOf('file:///etc/passwd')).toBe('refused');
    expect(outcomeOf(`${base}/`)).toBe('done');
    expect(outcomeOf(url)).toBe('failed NOT_FOUND');
    await h.shot('browser-actions');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
