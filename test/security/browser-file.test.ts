/**
 * Issue 12, attack 2: `browser_navigate` to file:///…/DATA/workspace showed a directory listing;
 * two clicks ("[parent directory]", "token") put the bearer token in the snapshot. Rule: file: in
 * the browser reaches only the workspace, each navigation and each subresource judged on its real
 * path (symbolic links resolved); listings outside it and parent links are refused; Toolgate's own
 * files (token, database, logs, host.json) are never opened nor uploaded to a page, even when the
 * workspace root is set to a folder that contains the data dir. Real host, real MCP client, real
 * Chromium.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { removeDir } from '../support/remove-dir';
import { requireChromium } from '../support/requirements';

const OUTSIDE = /PERMISSION_DENIED: Refused: that file: URL leads outside the workspace\./;
const OWN_FILE = /PERMISSION_DENIED: Refused: that file is one of Toolgate's own/;

let parent: string;
let dataDir: string;
let t: TestHost;
let client: Client;
let token: string;

const fileUrl = (path: string) => pathToFileURL(path).href;
const workspace = () => join(dataDir, 'workspace');

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { error: result.isError === true, text: textOf(result) };
}

/** The ref of the first snapshot line matching `pattern`. */
function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  const ref = line && /\b((?:f\d+)?e\d+)\b/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${snapshot}`);
  return ref;
}

/**
 * The browser's own record of every request to the data dir outside the workspace: each must have
 * been stopped before it was read (blocked), not loaded and then hidden.
 */
async function requestsIntoDataDir(): Promise<string[]> {
  const log = (await call('browser_network_log', { urlContains: fileUrl(dataDir), limit: 500 })).text;
  return log.split('\n').filter((l) => l.startsWith('GET ') && !l.includes(fileUrl(workspace())));
}

function allBlocked(lines: string[]): boolean {
  return lines.every((l) => / → FAILED net::ERR_BLOCKED_BY_CLIENT/.test(l));
}

async function start(): Promise<void> {
  t = await startTestHost({ dataDir });
  client = await connectClient(t.host, 'file-agent');
  token = t.host.token;
}

beforeAll(async () => {
  requireChromium();
  parent = mkdtempSync(join(tmpdir(), 'toolgate-file-'));
  dataDir = join(parent, 'data');
  await start();
  writeFileSync(join(workspace(), 'notes.html'), '<title>Notes</title><h1>Workspace notes</h1>');
  mkdirSync(join(workspace(), 'docs'));
  writeFileSync(join(workspace(), 'docs', 'a.txt'), 'alpha');
  symlinkSync(join(dataDir, 'token'), join(workspace(), 'token-link'));
  symlinkSync(dataDir, join(workspace(), 'data-link'));
  symlinkSync('/etc', join(workspace(), 'etc-link'));
  writeFileSync(
    join(workspace(), 'frames.html'),
    `<title>Frames</title><h1>Framed</h1>
<iframe src="${fileUrl(join(dataDir, 'token'))}" title="absolute"></iframe>
<iframe src="token-link" title="link"></iframe>
<iframe src="../" title="parent"></iframe>
<img src="../token" alt="token image">`,
  );
  writeFileSync(join(parent, 'beside.txt'), 'next to the data dir');
  writeFileSync(join(parent, 'upload.html'), '<title>Upload</title><input type="file" aria-label="Attachment">');
}, 120_000);
afterAll(async () => {
  await client?.close();
  await t?.dispose();
  await removeDir(parent);
});

describe('file: URLs inside the workspace', () => {
  it('open a workspace page and list a workspace folder', async () => {
    expect((await call('browser_navigate', { url: fileUrl(join(workspace(), 'notes.html')) })).error).toBe(false);
    expect((await call('browser_snapshot')).text).toContain('Workspace notes');
    expect((await call('browser_navigate', { url: fileUrl(join(workspace(), 'docs')) })).error).toBe(false);
    expect((await call('browser_snapshot')).text).toContain('a.txt');
  });
});

describe('the attack of issue 12 (workspace listing, "[parent directory]", "token")', () => {
  it('stops at the parent link: the data dir is never listed and the token never shown', async () => {
    expect((await call('browser_navigate', { url: fileUrl(workspace()) })).error).toBe(false);
    const listing = (await call('browser_snapshot')).text;
    expect(listing).toContain('notes.html');
    const clicked = await call('browser_click', { ref: refOf(listing, /link "\[parent directory\]"/) });
    expect(clicked.text).toMatch(/Toolgate blocked what the page tried to load: Refused: that file: URL leads outside/);
    const after = (await call('browser_snapshot')).text;
    expect(after).not.toMatch(/toolgate\.db|host\.json|"token"/);
    expect(after).not.toContain(token);
    const tried = await requestsIntoDataDir();
    expect(tried.length).toBeGreaterThan(0);
    expect(allBlocked(tried)).toBe(true);
  });

  it('refuses the data dir, the token and every spelling of a way there', async () => {
    for (const url of [
      fileUrl(dataDir),
      fileUrl(join(dataDir, 'token')),
      `${fileUrl(workspace())}/../token`,
      `${fileUrl(workspace())}/%2e%2e/token`,
      fileUrl(join(dataDir, 'toolgate.db')),
      fileUrl(join(dataDir, 'logs')),
      `file://localhost${join(dataDir, 'token')}`,
    ]) {
      const opened = await call('browser_navigate', { url });
      expect([url, opened.error, opened.text]).toEqual([url, true, expect.stringMatching(OUTSIDE)]);
    }
  });

  it('refuses symbolic links in the workspace that lead out, judged on where they lead', async () => {
    for (const name of ['token-link', 'data-link', 'data-link/token', 'etc-link/hostname']) {
      const opened = await call('browser_navigate', { url: fileUrl(join(workspace(), name)) });
      expect([name, opened.error, opened.text]).toEqual([name, true, expect.stringMatching(OUTSIDE)]);
    }
  });

  it('lets a workspace page frame or embed none of them', async () => {
    const opened = await call('browser_navigate', { url: fileUrl(join(workspace(), 'frames.html')) });
    expect(opened.error).toBe(false);
    expect(opened.text).toMatch(/Toolgate blocked what the page tried to load: Refused: that file: URL leads outside/);
    const snapshot = (await call('browser_snapshot')).text;
    expect(snapshot).toContain('Framed');
    expect(snapshot).not.toContain(token);
    expect(snapshot).not.toMatch(/toolgate\.db|host\.json/);
    expect(allBlocked(await requestsIntoDataDir())).toBe(true);
  });
});

describe("Toolgate's own files when the workspace root contains the data dir", () => {
  beforeAll(async () => {
    await t.host.api.updateSettings({ changes: { workspaceRoot: parent } });
    await client.close();
    await t.host.close();
    await start();
  }, 120_000);

  it('are never opened, while the rest of that workspace is', async () => {
    expect(readFileSync(join(dataDir, 'token'), 'utf8').trim()).toBe(token);
    for (const name of ['token', 'toolgate.db', 'logs', 'host.json', '']) {
      const opened = await call('browser_navigate', { url: fileUrl(join(dataDir, name)) });
      expect([name, opened.error, opened.text]).toEqual([name, true, expect.stringMatching(OWN_FILE)]);
    }
    const viaLink = await call('browser_navigate', { url: fileUrl(join(workspace(), 'token-link')) });
    expect(viaLink.text).toMatch(OWN_FILE);
    expect((await call('browser_navigate', { url: fileUrl(join(parent, 'beside.txt')) })).error).toBe(false);
    expect((await call('browser_snapshot')).text).toContain('next to the data dir');
    expect((await call('browser_navigate', { url: fileUrl(join(workspace(), 'notes.html')) })).error).toBe(false);
  });

  it('are never attached to a page by browser_file_upload', async () => {
    expect((await call('browser_navigate', { url: fileUrl(join(parent, 'upload.html')) })).error).toBe(false);
    const ref = refOf((await call('browser_snapshot')).text, /Attachment/);
    for (const path of ['data/token', 'data/toolgate.db', 'data/workspace/token-link']) {
      const attached = await call('browser_file_upload', { ref, paths: [path] });
      expect([path, attached.error, attached.text]).toEqual([path, true, expect.stringMatching(OWN_FILE)]);
    }
    expect((await call('browser_file_upload', { ref, paths: ['beside.txt'] })).error).toBe(false);
  });

  it("shows no listing of the data dir's files from the folder above it, past a listing of that folder", async () => {
    expect((await call('browser_navigate', { url: fileUrl(parent) })).error).toBe(false);
    const listing = (await call('browser_snapshot')).text;
    const clicked = await call('browser_click', { ref: refOf(listing, /link "data\/?"/) });
    expect(clicked.text).toMatch(
      /Toolgate blocked what the page tried to load: Refused: that file is one of Toolgate's own/,
    );
    expect((await call('browser_snapshot')).text).not.toMatch(/toolgate\.db|host\.json/);
    expect(allBlocked(await requestsIntoDataDir())).toBe(true);
  });
});
