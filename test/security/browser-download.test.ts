/**
 * Issue 12, attack 9: a page's `<a download>` clicked with browser_click wrote
 * workspace/downloads/evil.sh without approval, while write_file and download_file ask. Rule: a
 * browser download is a write: it waits in the same approval queue ("browser download: evil.sh
 * from http://…"), is recorded in the audit, lands in workspace/downloads only when a person
 * approves, and is discarded when they deny. Until then the bytes wait in the host's own folder,
 * outside the workspace. Real host, real MCP client, real Chromium.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { requireChromium } from '../support/requirements';

const SCRIPT = '#!/bin/sh\necho pwned\n';

let t: TestHost;
let client: Client;
let site: Server;
let siteUrl: string;

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { error: result.isError === true, text: textOf(result), structured: result.structuredContent };
}

function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  const ref = line && /\b((?:f\d+)?e\d+)\b/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${snapshot}`);
  return ref;
}

const evil = () => join(t.dataDir, 'workspace', 'downloads', 'evil.sh');
/** What the browser holds while a person decides: in the host's own folder, outside the workspace. */
const held = (): string[] => {
  const dir = join(t.dataDir, 'browser-downloads');
  return existsSync(dir) ? readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')) : [];
};

async function pendingDownload() {
  await expect
    .poll(() => t.host.approvals.pending().filter((p) => p.toolId === 'browser_download').length, { timeout: 10_000 })
    .toBe(1);
  const item = t.host.approvals.pending().find((p) => p.toolId === 'browser_download');
  if (!item) throw new Error('no download approval');
  return item;
}

async function stateOfDownload(index: number): Promise<string | undefined> {
  const listed = await call('browser_download_list', { waitMs: 1000 });
  return (JSON.parse(listed.text) as { downloads: Array<{ state: string }> }).downloads[index]?.state;
}

async function clickDownload(): Promise<string> {
  await call('browser_navigate', { url: `${siteUrl}/` });
  const snapshot = (await call('browser_snapshot')).text;
  return (await call('browser_click', { ref: refOf(snapshot, /link "Get the tool"/) })).text;
}

beforeAll(async () => {
  requireChromium();
  site = createServer((req, res) => {
    if (req.url === '/evil.sh') return void res.writeHead(200, { 'content-type': 'text/x-sh' }).end(SCRIPT);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>Tools</title><a href="/evil.sh" download>Get the tool</a>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestHost({ approvalTimeoutMs: 120_000 });
  client = await connectClient(t.host, 'hostile-agent');
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
  site?.closeAllConnections();
  site?.close();
});

describe("the attack of issue 12 (a page's <a download> clicked with browser_click)", () => {
  it('writes nothing: the click says the download waits for approval; the queue names file and source', async () => {
    const clicked = await clickDownload();
    expect(clicked).toMatch(
      /The page started a download: evil\.sh from http:\/\/127\.0\.0\.1:\d+\/evil\.sh\. .*it is waiting for approval/,
    );
    const item = await pendingDownload();
    expect(item).toMatchObject({
      toolId: 'browser_download',
      title: `browser download: evil.sh from ${siteUrl}/evil.sh`,
      risk: 'HIGH',
      requester: { kind: 'mcp' },
    });
    expect(await stateOfDownload(0)).toBe('awaiting_approval');
    expect(existsSync(evil())).toBe(false);
    expect(held()).toEqual([SCRIPT]);
  });

  it('discards it when the person denies it: it never lands, and the audit records the denial', async () => {
    const [item] = t.host.approvals.pending().filter((p) => p.toolId === 'browser_download');
    t.host.approvals.answer(item?.approvalId ?? '', {
      decision: 'deny',
      reason: 'not from that site',
      decider: 'person',
    });
    await expect.poll(() => stateOfDownload(0), { timeout: 10_000 }).toBe('discarded');
    const listed = JSON.parse((await call('browser_download_list')).text) as {
      downloads: Array<{ state: string; path: string | null; error?: string }>;
    };
    expect(listed.downloads[0]).toMatchObject({ state: 'discarded', path: null, error: 'denied: not from that site' });
    expect(existsSync(evil())).toBe(false);
    await expect.poll(held, { timeout: 5_000 }).toEqual([]);
    const audit = (await t.host.api.auditLog({ limit: 50 })).filter((a) => a.toolId === 'browser_download');
    expect(audit.map((a) => [a.decision, a.decider])).toEqual([['deny', 'person']]);
  });

  it('lands in workspace/downloads once a person approves it, and the audit records the approval', async () => {
    await clickDownload();
    const item = await pendingDownload();
    expect(existsSync(evil())).toBe(false);
    t.host.approvals.answer(item.approvalId, { decision: 'approve_once', decider: 'person' });
    await expect.poll(() => stateOfDownload(1), { timeout: 10_000 }).toBe('completed');
    expect(readFileSync(evil(), 'utf8')).toBe(SCRIPT);
    await expect.poll(held, { timeout: 5_000 }).toEqual([]);
    const audit = (await t.host.api.auditLog({ limit: 50 })).filter((a) => a.toolId === 'browser_download');
    expect(audit.map((a) => a.decision).sort()).toEqual(['approve_once', 'deny']);
  });
});
