/** browser_navigate: open a URL (or go back, forward, reload) in the active tab and wait for it to load. */
import type { Page, Response } from 'playwright-core';
import { z } from 'zod';
import { timeoutMs } from '../../core/fields';
import { ToolCallError, success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { errorText, isTimeoutError } from '../errors';
import { type LoadRules, judgeUrl } from '../request-guard';
import { whereNow } from './common';

const SCHEMES = new Set(['http:', 'https:', 'about:', 'data:', 'chrome:', 'file:']);

const input = z.object({
  url: z.string().min(1).optional().describe('With its scheme.'),
  history: z.enum(['back', 'forward', 'reload']).optional().describe('Instead of url.'),
  waitUntil: z.enum(['load', 'domcontentloaded', 'networkidle', 'commit']).default('load'),
  timeoutMs: timeoutMs(1000, 120_000).optional().describe('30000 if omitted.'),
});

async function checkedUrl(raw: string, rules: LoadRules): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const guess = /^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(raw) ? ` Did you mean "https://${raw}"?` : '';
    throw new ToolCallError('INVALID_ARGUMENT', `"${raw}" is not an absolute URL.${guess}`, {
      hint: 'Pass a full URL with its scheme, e.g. https://example.com/path.',
      data: { fields: ['url'] },
    });
  }
  if (!SCHEMES.has(url.protocol)) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `URLs with scheme "${url.protocol}" cannot be opened; use http(s), about, data, chrome or a workspace file: URL.`,
      { data: { fields: ['url'] } },
    );
  }
  // The route refuses it too; judged here first so the refusal answers this call, before any load.
  const refusal = await judgeUrl(url.href, rules);
  if (refusal) throw refusal;
  return url.href;
}

async function stopLoading(page: Page): Promise<void> {
  const cdp = await page
    .context()
    .newCDPSession(page)
    .catch(() => undefined);
  if (!cdp) return;
  await cdp.send('Page.stopLoading').catch(() => undefined);
  await cdp.detach().catch(() => undefined);
}

/**
 * The failure of a navigation the server answered with an error status and no page (Chrome then
 * shows its own error page): the status says why, in the model's and the person's words.
 */
function httpStatusFailure(url: string | undefined, status: number, statusText: string): ToolCallError {
  const answered =
    `the server answered HTTP ${status}${statusText ? ` ${statusText}` : ''} with no page to show, ` +
    'so the browser shows its error page';
  const where = url ?? 'The page';
  if (status === 404 || status === 410)
    return new ToolCallError('NOT_FOUND', `${where} failed to load: ${answered}.`, {
      hint:
        'The server has nothing at this address: check the URL (a ' +
        'typo, an old link), or open the site and follow its links.',
      data: { status },
    });
  return new ToolCallError('EXECUTION_FAILED', `${where} failed to load: ${answered}.`, {
    hint:
      status >= 500
        ? 'The server failed to answer; retry later, and tell the user if it keeps failing.'
        : 'The server refused the request; check the URL and whether the page needs a login.',
    data: { status },
  });
}

/**
 * Per destination origin (or scheme, for file: and data:), so a site that is down does not pause opening the others.
 */
function destinationOf(url: string | undefined): string {
  if (url === undefined) return 'history';
  if (!URL.canParse(url)) return 'invalid';
  const parsed = new URL(url);
  return parsed.origin === 'null' ? parsed.protocol : parsed.origin;
}

export function browserNavigate(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_navigate',
    title: 'Open a web page',
    description:
      'Opens a URL in the active tab, or goes back, forward or reloads, and gives the final URL, title and status.',
    input,
    metadata: { category: 'browser', risk: 'MEDIUM', tags: ['browser', 'web', 'navigation'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'network',
    breakerScope: (args) => `${deps.manager.breakerScope()} ${destinationOf(args.url)}`,
    target: (args) => args.url ?? args.history ?? '',
    timeoutHint:
      'The page did not finish loading in time. Retry with waitUntil "domcontentloaded" or "commit", or a larger ' +
      'timeoutMs; if it never responds, check that the server is up.',
    async run({ args, ctx, page, deps: d }) {
      if ((args.url === undefined) === (args.history === undefined)) {
        throw new ToolCallError('INVALID_ARGUMENT', 'Give exactly one of "url" or "history".', {
          data: { fields: ['url', 'history'] },
        });
      }
      const timeout = args.timeoutMs ?? d.manager.navigationTimeoutMs;
      const options = { waitUntil: args.waitUntil, timeout, signal: ctx.signal };
      const url = args.url !== undefined ? await checkedUrl(args.url, d.manager.loadRules) : undefined;
      let response;
      // The main document's answer, kept for a load that fails after it: its status says why.
      let answer: { status: number; statusText: string } | undefined;
      const onResponse = (r: Response) => {
        if (r.request().isNavigationRequest() && r.frame() === page.mainFrame())
          answer = { status: r.status(), statusText: r.statusText() };
      };
      page.on('response', onResponse);
      try {
        if (url !== undefined) response = await page.goto(url, options);
        else if (args.history === 'back') response = await page.goBack(options);
        else if (args.history === 'forward') response = await page.goForward(options);
        else response = await page.reload(options);
      } catch (e) {
        // Giving up on a navigation does not stop the browser loading it; left running, it would
        // interrupt the next navigation. Stop it, as the stop button would.
        if (isTimeoutError(e) || ctx.signal.aborted) await stopLoading(page);
        const interrupted = /interrupted by another navigation to "([^"]*)"/.exec(errorText(e));
        const errorPage =
          interrupted?.[1]?.startsWith('chrome-error:') || /ERR_HTTP_RESPONSE_CODE_FAILURE/.test(errorText(e));
        if (errorPage && answer !== undefined && answer.status >= 400) {
          await page.waitForURL(/^chrome-error:/, { timeout: 1_000 }).catch(() => undefined);
          throw httpStatusFailure(url, answer.status, answer.statusText);
        }
        if (interrupted?.[1]?.startsWith('chrome-error:'))
          throw new ToolCallError(
            'EXECUTION_FAILED',
            `${url ?? 'The page'} failed to load; the browser shows its error page.`,
            { hint: 'Check the URL and that the server is reachable.' },
          );
        if (interrupted) {
          // The page sent us elsewhere while loading (script or meta redirect): that is where we are now.
          await page
            .waitForLoadState(args.waitUntil === 'commit' ? 'domcontentloaded' : args.waitUntil, { timeout })
            .catch(() => undefined);
          return success(`The page redirected while loading. ${await whereNow(page)}`, {
            url: page.url(),
            title: await page.title().catch(() => ''),
            status: null,
          });
        }
        // Chrome commits its own error page right after a network error; wait for it so it cannot
        // interrupt the next navigation.
        if (/net::ERR_/.test(errorText(e)) && !page.url().startsWith('chrome-error:')) {
          await page.waitForURL(/^chrome-error:/, { timeout: 1_000 }).catch(() => undefined);
        }
        throw e;
      } finally {
        page.off('response', onResponse);
      }
      if ((args.history === 'back' || args.history === 'forward') && response === null) {
        return success(
          `Nothing to go ${args.history} to, or the move stayed within the same document. ${await whereNow(page)}`,
        );
      }
      const status = response?.status();
      const note = status !== undefined && status >= 400 ? ` The server answered HTTP ${status}.` : '';
      return success(`Loaded${status !== undefined ? ` (HTTP ${status})` : ''}. ${await whereNow(page)}${note}`, {
        url: page.url(),
        title: await page.title(),
        status: status ?? null,
      });
    },
  });
}
