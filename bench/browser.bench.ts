/**
 * browser_snapshot: Toolgate vs @playwright/mcp on the same three local pages in the same run
 * (a small form, a 1,000-row table, a nested shadow-DOM app). Both drive /usr/bin/chromium
 * headless; @playwright/mcp runs as a real MCP server over stdio (it bundles its own Playwright),
 * ours runs through the pipeline the host runs, wired as the host wires the browser family
 * (test/browser/harness.ts `browserPipeline`: environment gate with the browser rules, validation,
 * approval gate, breaker, run policy and spans; per-minute quotas off).
 * Compared: bytes of the text a model receives, and the median time of a snapshot call. Checked:
 * every visible interactive element of each page got a ref in our snapshot that resolves to it.
 * Last line: {"bench":"browser","ratios":{"bytes":…,"time":…}} (ours / theirs, totals over the pages).
 */
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { renderResult } from '../tools/core/result';
import { BrowserManager } from '../tools/browser';
import { browserPipeline } from '../test/browser/harness';

const CHROMIUM = '/usr/bin/chromium';
const PAGES = ['form.html', 'table.html', 'shadow-app.html'];
const RUNS = 11;
const PAGES_DIR = join(__dirname, '..', 'test', 'browser', 'pages');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.flatMap((c) => (c.type === 'text' && c.text ? [c.text] : [])).join('\n');
}

/** Visible interactive elements (through open shadow roots and same-origin iframes) that no ref of ours resolved to. */
const UNADDRESSED = `(() => {
  const SELECTOR = 'a[href],button,input:not([type=hidden]),select,textarea,summary,' +
    '[contenteditable=""],[contenteditable=true],' +
    '[role=button],[role=link],[role=checkbox],[role=radio],[role=switch],[role=tab],[role=menuitem],' +
    '[role=option],[role=combobox],[role=textbox],[role=slider]';
  const out = { total: 0, missing: [] };
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches(SELECTOR)) {
        const r = el.getBoundingClientRect();
        const visible =
          r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
        if (visible) {
          out.total++;
          if (!el.hasAttribute('data-bench-ref')) out.missing.push(el.outerHTML.slice(0, 120));
        }
      }
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.tagName === 'IFRAME' && el.contentDocument) visit(el.contentDocument);
    }
  };
  visit(document);
  return out;
})()`;

async function checkAddressable(
  page: Page,
  snapshot: string,
): Promise<{ total: number; refs: number; missing: string[] }> {
  const refs = [...new Set([...snapshot.matchAll(/(?:^\s*|\[)((?:f\d+)?e\d+) /gm)].map((m) => m[1] as string))];
  for (const ref of refs) {
    await page.locator(`aria-ref=${ref}`).evaluate((el) => el.setAttribute('data-bench-ref', '1'));
  }
  const found = (await page.evaluate(UNADDRESSED)) as { total: number; missing: string[] };
  return { total: found.total, refs: refs.length, missing: found.missing };
}

async function main(): Promise<void> {
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1).split('?')[0] ?? '';
    if (!PAGES.includes(name)) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    void readFile(join(PAGES_DIR, name)).then((body) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-bench-browser-'));
  const manager = new BrowserManager({ executablePath: CHROMIUM, headless: true });
  const family = browserPipeline(manager, scratch);
  const ours = async (toolId: string, args: unknown) => {
    const result = await family.call(toolId, args);
    if (!result.ok) throw new Error(`${toolId}: ${renderResult(result)}`);
    return renderResult(result);
  };

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js'),
      '--headless',
      '--executable-path',
      CHROMIUM,
      '--isolated',
      '--no-sandbox',
      '--output-dir',
      join(scratch, 'mcp-out'),
    ],
    cwd: scratch,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'toolgate-bench', version: '0.0.0' });
  await client.connect(transport);
  const theirs = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${textOf(result)}`);
    return textOf(result);
  };

  let failed = false;
  const totals = { oursBytes: 0, theirsBytes: 0, oursMs: 0, theirsMs: 0 };
  try {
    const pings: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await client.ping();
      pings.push(performance.now() - t);
    }
    console.log(
      `MCP stdio round trip (ping), median: ${median(pings).toFixed(2)} ` +
        'ms; it is part of the @playwright/mcp times below.',
    );
    console.log(
      'page             | bytes ours | bytes theirs | ratio | ms ours | ms theirs | ratio | interactive / refs ours',
    );
    for (const name of PAGES) {
      await ours('browser_navigate', { url: `${base}/${name}` });
      await theirs('browser_navigate', { url: `${base}/${name}` });
      // One warm-up each, then alternate which side goes first so neither always gets the warmer CPU.
      let ourText = await ours('browser_snapshot', {});
      let theirText = await theirs('browser_snapshot', {});
      const oursMs: number[] = [];
      const theirsMs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const order = i % 2 === 0 ? ['ours', 'theirs'] : ['theirs', 'ours'];
        for (const side of order) {
          const t = performance.now();
          if (side === 'ours') {
            ourText = await ours('browser_snapshot', {});
            oursMs.push(performance.now() - t);
          } else {
            theirText = await theirs('browser_snapshot', {});
            theirsMs.push(performance.now() - t);
          }
        }
      }
      const page = manager.activePage();
      if (!page) throw new Error('our browser has no page');
      const check = await checkAddressable(page, ourText);
      const ob = Buffer.byteLength(ourText);
      const tb = Buffer.byteLength(theirText);
      const om = median(oursMs);
      const tm = median(theirsMs);
      totals.oursBytes += ob;
      totals.theirsBytes += tb;
      totals.oursMs += om;
      totals.theirsMs += tm;
      console.log(
        `${name.padEnd(16)} | ${String(ob).padStart(10)} | ${String(tb).padStart(12)} | ${(ob / tb).toFixed(2)}  ` +
          `| ${om.toFixed(1).padStart(7)} | ${tm.toFixed(1).padStart(9)} ` +
          `| ${(om / tm).toFixed(2)}  | ${check.total} / ${check.refs}`,
      );
      if (check.missing.length > 0) {
        failed = true;
        console.log(
          `  NOT ADDRESSABLE in our snapshot (${check.missing.length}): ${check.missing.slice(0, 5).join(' ; ')}`,
        );
      }
    }
  } finally {
    await client.close().catch(() => undefined);
    await manager.close();
    server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const ratios = {
    bytes: Number((totals.oursBytes / totals.theirsBytes).toFixed(3)),
    time: Number((totals.oursMs / totals.theirsMs).toFixed(3)),
  };
  console.log(
    `totals: ours ${totals.oursBytes} B / ${totals.oursMs.toFixed(1)} ms, theirs ${totals.theirsBytes} B ` +
      `/ ${totals.theirsMs.toFixed(1)} ms (the ratios below are of these totals)`,
  );
  if (failed) console.log('every interactive element addressable: NO');
  else console.log('every interactive element addressable: yes');
  console.log(JSON.stringify({ bench: 'browser', ratios }));
  if (failed) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
