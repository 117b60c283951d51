/**
 * One real host (temporary data dir, free port) serving the built renderer, one real Chromium page
 * on it, and one real MCP client: what the UI tests drive. The page holds a person's UI session,
 * opened the way a person opens it: by loading a one-time link the host made (`host.uiLink()`, the
 * link `serve` prints). Screenshots go to test-output/screenshots/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, type Page, chromium } from 'playwright-core';
import { type Host, type HostOptions, startHost } from '../../../tools/host/host';
import { openPages } from './failure-pages';
import { ensureRendererBuild } from './renderer-build';
import { freePort, killAdbServer } from '../../support/private-adb';
import { CHROMIUM, requireChromium } from '../../support/requirements';
import { allowEveryToolset } from '../../host/harness';
import { LINUX_ARGS } from '../../../tools/browser/launch';

process.env.TOOLGATE_QUIET = '1';

export const SCREENSHOTS = resolve(__dirname, '../../../test-output/screenshots');

export interface UiHarness {
  host: Host;
  dataDir: string;
  workspace: string;
  browser: Browser;
  page: Page;
  mcp: Client;
  /** Page errors and console errors seen so far (a healthy UI logs none). */
  problems: string[];
  open(route: string): Promise<void>;
  shot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, args: LINUX_ARGS });
}

export async function connectMcp(host: Pick<Host, 'address' | 'token'>, name = 'ui-e2e'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(host.address.mcp), {
      requestInit: { headers: { authorization: `Bearer ${host.token}` } },
    }),
  );
  return client;
}

export async function startUiHarness(
  options: Partial<HostOptions> & { colorScheme?: 'light' | 'dark' } = {},
): Promise<UiHarness> {
  const rendererDir = await ensureRendererBuild();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'toolgate-ui-'));
  // A private adb server unless the test brings its own: this host sees only its own phones.
  const ownAdb = options.adbPort === undefined ? await freePort() : undefined;
  const host = await startHost({ port: 0, ...options, ...(ownAdb ? { adbPort: ownAdb } : {}), dataDir, rendererDir });
  // The UI tests drive every family through the data dir's token, as a person who gave it every toolset.
  allowEveryToolset(host);
  const browser = await launchChromium();
  const page = await browser.newPage({
    viewport: { width: 1400, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    acceptDownloads: true,
  });
  openPages.add(page);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(host.uiLink());
  await page.locator('h1').first().waitFor();
  // Back to a blank page, so a test's first open() is a full load (init scripts run) as before.
  await page.goto('about:blank');
  const mcp = await connectMcp(host);
  mkdirSync(SCREENSHOTS, { recursive: true });
  let closed = false;
  return {
    host,
    dataDir,
    workspace: join(dataDir, 'workspace'),
    browser,
    page,
    mcp,
    problems,
    async open(route) {
      await page.goto(`${host.address.ui}#/${route}`);
      await page.locator('h1').first().waitFor();
    },
    async shot(name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      if (closed) return;
      closed = true;
      openPages.delete(page);
      await mcp.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await host.close();
      if (ownAdb) await killAdbServer(ownAdb);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The text of an MCP tool result's content. */
export function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? '').join('\n');
}
