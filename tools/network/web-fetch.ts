/**
 * web_fetch: GET a page and return it as readable text. HTML is laid out as text with headings
 * and numbered links; JSON is pretty-printed; other text as is; anything else (images, archives,
 * PDFs) is UNSUPPORTED with a pointer to download_file. 404/410 are NOT_FOUND, other non-2xx
 * statuses map as in `statusFailure`.
 */
import { z } from 'zod';
import { type ToolFailure, failure, success } from '../core/result';
import { defineTool } from '../core/tool';
import {
  type BodyRead,
  callSignal,
  contentKind,
  decodeText,
  fetchWithRedirects,
  networkFailure,
  readBodyCapped,
  statusFailure,
} from './http-fetch';
import { originOf, parseHttpUrl, splitCredentials } from './http-url';
import { htmlToReadable } from './html-text';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, type NetworkSettings } from './options';
import { redactUrl, scrub, scrubValue, secretValues } from './secrets';
import { bytesNote, textWindow } from './text-window';

const USER_AGENT = 'Toolgate/0.1 (web_fetch)';
const ACCEPT = 'text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.1';

const input = z.object({
  url: z.string().min(1).describe('The http:// or https:// URL of the page to read.'),
  maxChars: z
    .number()
    .int()
    .min(200)
    .max(100_000)
    .default(20_000)
    .describe('Most characters of text to return in this call (default 20000).'),
  startChar: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Character offset to start from, to continue a long page; the truncation note gives the value.'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS)
    .default(DEFAULT_TIMEOUT_MS)
    .describe('Give up after this many milliseconds (default 30000).'),
});

export function webFetchTool(settings: NetworkSettings) {
  return defineTool({
    id: 'web_fetch',
    title: 'Fetch web page',
    description:
      'Fetch a web page or text resource over http(s) with GET and return readable text: HTML as text with # headings and numbered links listed at the end, JSON pretty-printed, plain text as is. Long pages are returned in windows (use startChar to read on). Binary content is refused; use download_file for files.',
    input,
    metadata: { category: 'network', risk: 'LOW' },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    runPolicy: 'network',
    breakerScope: (args) => originOf(args.url),
    async run(args, ctx) {
      const given = parseHttpUrl(args.url);
      const { url, authorization } = splitCredentials(given);
      const headers: Record<string, string> = {
        'user-agent': USER_AGENT,
        accept: ACCEPT,
        ...(authorization ? { authorization } : {}),
      };
      const secrets = secretValues(headers, given);
      const fetched = await fetchPage(settings, url, headers, args.timeoutMs, ctx.signal);
      if (!fetched.ok) return fetched.failure;
      const { response, finalUrl, body, contentType, kind } = fetched;
      const raw = decodeText(body.data, contentType);
      const page = render(kind, raw, finalUrl, body.truncated);
      const window = textWindow(
        page.body,
        args.startChar,
        args.maxChars,
        (end) => `Call web_fetch again with startChar=${end} to read on.`,
      );
      const shownUrl = redactUrl(finalUrl);
      const lines = [
        `URL: ${shownUrl}`,
        ...(page.title ? [`Title: ${page.title}`] : []),
        `Content-Type: ${contentType ?? 'unknown'}`,
        '',
      ];
      lines.push(window.text);
      if (window.note) lines.push('', window.note);
      if (body.truncated) lines.push('', bytesNote(body.data.length, settings.maxBytes));
      const structured = {
        url: shownUrl,
        status: response.status,
        contentType,
        title: page.title ?? null,
        startChar: window.start,
        endChar: window.end,
        totalChars: window.total,
        truncated: window.end < window.total,
        bodyTruncated: body.truncated,
        links: page.links,
      };
      return success(scrub(lines.join('\n'), secrets), scrubValue(structured, secrets));
    },
  });
}

type Fetched =
  | {
      ok: true;
      response: Response;
      finalUrl: URL;
      body: BodyRead;
      contentType: string | null;
      kind: 'html' | 'json' | 'text';
    }
  | { ok: false; failure: ToolFailure };

/** The network part: every failure in here is about getting the bytes, and is mapped as such. */
async function fetchPage(
  settings: NetworkSettings,
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
  parent: AbortSignal,
): Promise<Fetched> {
  const timer = callSignal(parent, timeoutMs);
  try {
    const { response, finalUrl } = await fetchWithRedirects(
      { url, method: 'GET', headers },
      { fetchImpl: settings.fetchImpl, signal: timer.signal },
    );
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, failure: statusFailure(response, finalUrl).toResult() };
    }
    const contentType = response.headers.get('content-type');
    const kind = contentKind(contentType);
    if (kind === 'other') {
      await response.body?.cancel().catch(() => undefined);
      return {
        ok: false,
        failure: failure(
          'UNSUPPORTED',
          `${redactUrl(finalUrl)} is ${contentType}, not a page that can be shown as text.`,
          {
            hint: 'Use download_file to save it into the workspace, then inspect it with a tool for that format.',
            data: { contentType },
          },
        ),
      };
    }
    return { ok: true, response, finalUrl, body: await readBodyCapped(response, settings.maxBytes), contentType, kind };
  } catch (e) {
    throw networkFailure(e, { url, timeoutMs, cause: timer.cause() });
  }
}

function render(
  kind: 'html' | 'json' | 'text',
  raw: string,
  url: URL,
  truncated: boolean,
): { title?: string; body: string; links: string[] } {
  if (kind === 'html') {
    const page = htmlToReadable(raw, url);
    const linkList =
      page.links.length > 0 ? `\n\nLinks:\n${page.links.map((l, i) => `[${i + 1}] ${l}`).join('\n')}` : '';
    return { ...(page.title ? { title: page.title } : {}), body: page.text + linkList, links: page.links };
  }
  if (kind === 'json' && !truncated) {
    try {
      return { body: JSON.stringify(JSON.parse(raw), null, 2), links: [] };
    } catch {
      // Not valid JSON despite the content type: show it as text rather than failing the call.
    }
  }
  return { body: raw, links: [] };
}
