/**
 * Test harness for the browser family: a real HTTP server on 127.0.0.1 (fixture pages plus slow,
 * never-answering, download and API routes), a temp workspace, one BrowserManager on the real
 * Chromium, and the tools run through the pipeline the host runs (test/support/family-pipeline.ts),
 * wired as tools/host/families.ts wires the family: its environment rules in the gate, its
 * `browser.*` readings in the host's telemetry, page downloads asked through the gate's in-tool
 * approval when a person is there to decide.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BROWSER_TELEMETRY_KEYS,
  type BrowserManagerOptions,
  BrowserManager,
  type ShowInfo,
  browserEnvironmentRules,
  browserTelemetryReading,
  browserTools,
} from '../../tools/browser';
import { type ToolResult, renderResult } from '../../tools/core/result';
import { type FamilyPipeline, type PersonDecides, familyPipeline } from '../support/family-pipeline';
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
  /** The pipeline the calls go through: its trace, breakers and what a person was asked. */
  family: FamilyPipeline;
  call(toolId: string, args?: unknown, signal?: AbortSignal): Promise<ToolResult>;
  /** Runs a call that must succeed and returns its text. */
  text(toolId: string, args?: unknown): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions extends BrowserManagerOptions {
  /**
   * A person deciding what the pipeline asks, tool-level and in-tool (page downloads, as the host
   * hands the family its in-tool approver); without one, tool-level requests are approved once and
   * the browser has no one to ask about downloads.
   */
  decide?: PersonDecides;
}

/** The family wired into a pipeline as tools/host/families.ts does. */
function registerBrowserFamily(
  family: FamilyPipeline,
  manager: BrowserManager,
  workspaceRoot: string,
  shown?: ShowInfo[],
): void {
  family.registry.registerAll(
    browserTools({ manager, workspaceRoot, ...(shown ? { onShow: (info: ShowInfo) => shown.push(info) } : {}) }),
  );
  family.addRules(browserEnvironmentRules(manager));
  family.telemetry.addSource({
    keys: () => Object.keys(BROWSER_TELEMETRY_KEYS),
    handles: (key) => key in BROWSER_TELEMETRY_KEYS,
    read: (key) => browserTelemetryReading(manager, key),
  });
}

/**
 * The browser family on `manager` behind its own pipeline (a second manager, a manager that cannot
 * launch), with no viewer to show pages in.
 */
export function browserPipeline(manager: BrowserManager, workspaceRoot: string): FamilyPipeline {
  const family = familyPipeline();
  registerBrowserFamily(family, manager, workspaceRoot);
  return family;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  requireChromium();
  const { decide, ...managerOptions } = options;
  const family = familyPipeline(decide ? { decide } : {});
  const server: Server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const workspace = mkdtempSync(join(tmpdir(), 'toolgate-browser-'));
  const manager = new BrowserManager({
    executablePath: CHROMIUM,
    headless: true,
    actionTimeoutMs: 3_000,
    ...(decide ? { approveDownload: family.askInTool } : {}),
    ...managerOptions,
  });
  const shown: ShowInfo[] = [];
  registerBrowserFamily(family, manager, workspace, shown);
  const call = (toolId: string, args: unknown = {}, signal?: AbortSignal) =>
    family.call(toolId, args, signal ? { signal } : {});
  return {
    base: `http://127.0.0.1:${port}`,
    otherSite: `http://localhost:${port}`,
    workspace,
    manager,
    shown,
    family,
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
