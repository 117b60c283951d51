/**
 * What the browser the tools drive may load. Installed on the whole context, so it judges every
 * request of every page, frame, popup and dedicated worker before it leaves, also in a browser
 * reached over CDP or a Playwright server, and every WebSocket a page opens:
 * - Toolgate itself, never: its port on any address of this machine, in any spelling, or under a
 *   name that resolves there. A page of the UI would let the tools click their own approvals.
 * - file: only inside the workspace, judged on the real path (symbolic links resolved), and never
 *   one of Toolgate's own files: a directory listing's parent link, an iframe of the token, a link
 *   that leads out are all refused.
 * Playwright follows redirects and worker WebSockets without asking the route; a browser Toolgate
 * launches is therefore also told that nothing resolves on Toolgate's port (launch.ts), and a page
 * that still ends up on a refused address is sent to about:blank (`evictRefused`).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Frame } from 'playwright-core';
import { type SelfGuard, effectivePort, realPathOf } from '../common/self-guard';
import { ToolCallError } from '../core/result';
import { isInside } from '../files/path-guard';

export interface LoadRules {
  self: SelfGuard;
  /** The workspace file: URLs may open; none when undefined. */
  workspaceRoot(): string | undefined;
}

const NETWORK_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

function fileRefusal(why: string): ToolCallError {
  return new ToolCallError('PERMISSION_DENIED', `Refused: that file: URL ${why}.`, {
    hint:
      'The browser opens file: URLs only inside the workspace (symbolic links are followed to judge where they ' +
      'lead). Do not retry another spelling of the path.',
    data: { gate: 'browser-file' },
  });
}

function judgeFile(url: URL, rules: LoadRules): ToolCallError | undefined {
  if (url.hostname !== '' && url.hostname !== 'localhost') return fileRefusal('names another computer');
  const root = rules.workspaceRoot();
  if (root === undefined) return fileRefusal('cannot be opened: no workspace is configured');
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    return fileRefusal('is not a valid local path');
  }
  if (path.includes('\0')) return fileRefusal('contains a NUL byte');
  const real = realPathOf(path);
  if (!isInside(realPathOf(root), real)) return fileRefusal('leads outside the workspace');
  if (rules.self.ownsPath(real)) return rules.self.fileRefusal();
  return undefined;
}

/** The verdict that needs no name resolution: file: URLs, address literals and loopback names. */
export function judgeUrlNow(raw: string, rules: LoadRules): ToolCallError | undefined {
  if (!URL.canParse(raw)) return undefined; // the browser cannot load what it cannot parse either
  const url = new URL(raw);
  if (url.protocol === 'file:') return judgeFile(url, rules);
  if (!NETWORK_SCHEMES.has(url.protocol)) return undefined;
  const port = effectivePort(url);
  if (rules.self.reachesName(url.hostname, port)) return rules.self.refusal(url.host);
  return undefined;
}

/**
 * The full verdict: also a name on Toolgate's port, by every address it resolves to (a name that does not resolve is
 * refused there).
 */
export async function judgeUrl(raw: string, rules: LoadRules): Promise<ToolCallError | undefined> {
  const now = judgeUrlNow(raw, rules);
  if (now || !URL.canParse(raw)) return now;
  const url = new URL(raw);
  if (!NETWORK_SCHEMES.has(url.protocol)) return undefined;
  const port = effectivePort(url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!rules.self.isOwnPort(port) || isIP(host)) return undefined;
  const answers = await lookup(host, { all: true, verbatim: true }).catch(() => undefined);
  if (!answers || answers.some((a) => rules.self.reaches(a.address, port))) return rules.self.refusal(url.host);
  return undefined;
}

/** A request whose judgement itself failed is refused: the rules fail closed. */
function unjudged(e: unknown): ToolCallError {
  return new ToolCallError(
    'PERMISSION_DENIED',
    `Refused: Toolgate could not check where this load leads (${String(e)}).`,
    {
      data: { gate: 'browser' },
    },
  );
}

/**
 * Routes every request and WebSocket of `context` through the rules; `onRefused` hears each
 * refusal (the tools tell the model what was blocked). Service workers, whose requests no route
 * sees, are blocked where Toolgate creates the context (launch.ts).
 */
export async function guardContext(
  context: BrowserContext,
  rules: LoadRules,
  onRefused: (refusal: ToolCallError) => void,
): Promise<void> {
  await context.route('**/*', async (route) => {
    const refusal = await judgeUrl(route.request().url(), rules).catch(unjudged);
    if (refusal) {
      onRefused(refusal);
      await route.abort('blockedbyclient').catch(() => undefined);
    } else {
      await route.continue().catch(() => undefined);
    }
  });
  await context.routeWebSocket(
    () => true,
    async (ws) => {
      const refusal = await judgeUrl(ws.url(), rules).catch(unjudged);
      if (refusal) {
        onRefused(refusal);
        await ws.close({ code: 1008, reason: 'refused by Toolgate' }).catch(() => undefined);
      } else {
        ws.connectToServer();
      }
    },
  );
  // A redirect hop is not routed; a launched browser cannot resolve it, and the model hears why.
  context.on('request', (request) => {
    if (!request.redirectedFrom()) return;
    const refusal = judgeUrlNow(request.url(), rules);
    if (refusal) onRefused(refusal);
  });
}

/**
 * A frame that ended up on a refused address anyway (a redirect in a borrowed browser) is sent to about:blank before
 * anything reads it.
 */
export function evictRefused(frame: Frame, rules: LoadRules, onRefused: (refusal: ToolCallError) => void): void {
  const refusal = judgeUrlNow(frame.url(), rules);
  if (!refusal) return;
  onRefused(refusal);
  void frame.goto('about:blank').catch(() => undefined);
}
