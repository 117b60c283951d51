/**
 * Test harness for the browser family: a real HTTP server on 127.0.0.1 (fixture pages plus slow,
 * never-answering, download and API routes), a temp workspace, one BrowserManager on the real
 * Chromium, and the tools run through the core ToolRegistry + DefaultToolExecutor.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultToolExecutor } from '../../tools/core/executor';
import { type ToolResult, renderResult } from '../../tools/core/result';
import { ToolRegistry } from '../../tools/core/registry';
import { type BrowserManagerOptions, BrowserManager, type ShowInfo, browserTools } from '../../tools/browser';
import { CHROMIUM, requireChromium } from '../support/requirements';

export { CHROMIUM } from '../support/requirements';
const PAGES = join(__dirname, 'pages');

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const html = (body: string) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  };
  if (url.pathname === '/slow') {
    setTimeout(() => html(`<title>Slow</title><h1>Finally loaded</h1>`), Number(url.searchParams.get('ms') ?? 1500));
    return;
  }
  if (url.pathname === '/never') return; // accepts the request and never answers
  if (url.pathname === '/files/report.csv') {
    res.setHeader('content-type', 'text/csv');
    res.setHeader('content-disposition', 'attachment; filename="report.csv"');
    res.end('id,name\n1,Alice\n2,Bob\n');
    return;
  }
  if (url.pathname === '/api/ok') {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
    return;
  }
  if (url.pathname === '/api/missing') {
    res.statusCode = 404;
    res.end('missing');
    return;
  }
  const file = join(PAGES, url.pathname.replace(/^\/+/, ''));
  if (file.startsWith(PAGES) && existsSync(file) && file.endsWith('.html')) return html(readFileSync(file, 'utf8'));
  res.statusCode = 404;
  res.end('not found');
}

export interface Harness {
  /** http://127.0.0.1:PORT */
  base: string;
  /** The same server under another site name (http://localhost:PORT), for cross-site iframes. */
  otherSite: string;
  workspace: string;
  manager: BrowserManager;
  shown: ShowInfo[];
  call(toolId: string, args?: unknown, signal?: AbortSignal): Promise<ToolResult>;
  /** Runs a call that must succeed and returns its text. */
  text(toolId: string, args?: unknown): Promise<string>;
  close(): Promise<void>;
}

export async function startHarness(options: BrowserManagerOptions = {}): Promise<Harness> {
  requireChromium();
  const server: Server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const workspace = mkdtempSync(join(tmpdir(), 'toolgate-browser-'));
  const manager = new BrowserManager({ executablePath: CHROMIUM, headless: true, actionTimeoutMs: 3_000, ...options });
  const shown: ShowInfo[] = [];
  const registry = new ToolRegistry();
  registry.registerAll(browserTools({ manager, workspaceRoot: workspace, onShow: (info) => shown.push(info) }));
  const executor = new DefaultToolExecutor(registry);
  const call = (toolId: string, args: unknown = {}, signal?: AbortSignal) =>
    executor.execute({ toolId, args, ...(signal ? { signal } : {}) });
  return {
    base: `http://127.0.0.1:${port}`,
    otherSite: `http://localhost:${port}`,
    workspace,
    manager,
    shown,
    call,
    async text(toolId, args = {}) {
      const result = await call(toolId, args);
      if (!result.ok) throw new Error(`${toolId} failed: ${renderResult(result)}`);
      return renderResult(result);
    },
    async close() {
      await manager.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** The ref printed on the first snapshot line that matches `pattern` (e.g. /checkbox "Send me/). */
export function refOf(snapshot: string, pattern: RegExp): string {
  for (const line of snapshot.split('\n')) {
    if (!pattern.test(line)) continue;
    const segments = line.includes('[') ? line.split('[').slice(1) : [line];
    for (const seg of segments) {
      if (pattern.test(seg) || !line.includes('[')) {
        const m = /^\s*((?:f\d+)?e\d+) /.exec(seg);
        if (m?.[1]) return m[1];
      }
    }
  }
  throw new Error(`no ref for ${pattern} in snapshot:\n${snapshot}`);
}

export function errorOf(result: ToolResult): { code: string; message: string; hint: string } {
  if (result.ok) throw new Error(`expected a failure, got: ${renderResult(result)}`);
  return result.error;
}
