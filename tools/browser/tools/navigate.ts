/** browser_navigate: open a URL (or go back, forward, reload) in the active tab and wait for it to load. */
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { errorText, isTimeoutError } from '../errors';
import { type LoadRules, judgeUrl } from '../request-guard';
import { whereNow } from './common';

const SCHEMES = new Set(['http:', 'https:', 'about:', 'data:', 'chrome:', 'file:']);

const input = z.object({
  url: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Absolute URL to open, with its scheme (https://example.com). file: URLs must point inside the workspace. Omit when using "history".',
    ),
  history: z
    .enum(['back', 'forward', 'reload'])
    .optional()
    .describe('Instead of a URL: go back, forward, or reload the current page.'),
  waitUntil: z
    .enum(['load', 'domcontentloaded', 'networkidle', 'commit'])
    .default('load')
    .describe(
      'When the navigation counts as done: "load" (default, all resources), "domcontentloaded" (HTML parsed), "networkidle" (no requests for 500 ms), "commit" (first response bytes).',
    ),
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(120_000)
    .optional()
    .describe('Give up after this many milliseconds (default 30000).'),
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

/** Per destination origin (or scheme, for file: and data:), so a site that is down does not pause opening the others. */
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
      'Opens a URL in the active browser tab (launching the browser if needed) and waits until it has loaded, or goes back/forward/reloads. Returns the final URL, title and HTTP status. Take browser_snapshot afterwards to see the page and get element refs.',
    input,
    metadata: { category: 'browser', risk: 'MEDIUM', tags: ['browser', 'web', 'navigation'] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    runPolicy: 'network',
    breakerScope: (args) => `${deps.manager.breakerScope()} ${destinationOf(args.url)}`,
    target: (args) => args.url ?? args.history ?? '',
    timeoutHint:
      'The page did not finish loading in time. Retry with waitUntil "domcontentloaded" or "commit", or a larger timeoutMs; if it never responds, check that the server is up.',
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
