/**
 * What a model reads of Toolgate: the tools/list answer in the default profile (device,
 * orchestration and the toolset tools) and in the whole catalog (every toolset, a GitHub token set),
 * then the results of one fixed agent task of 22 calls on the virtual phone, in the workspace and in
 * a local page in Chromium, the same every run. A result's bytes are those of its content (what an
 * MCP client puts in front of its model). @playwright/mcp's tools/list is measured in the same run,
 * as the peer. The last line is one JSON object:
 * {"bench":"context","toolsListBytes":…,"catalogBytes":…,"taskBytes":…,"perCallMedianBytes":…}.
 * Goals (docs/adding-a-tool.md#schemas-and-descriptions): default profile ≤ 12 KB, catalog ≤ 70 KB,
 * per-call median ≤ 1.5 KB; the run fails when one is missed.
 *
 * Run: `npm run bench -- context`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHost } from '../tools/host/host';
import { DEFAULT_PROFILE } from '../tools/host/toolsets/profile';
import { answerApprovals } from '../test/skills/support/approvals';
import { freePort, killAdbServer } from '../test/support/private-adb';

process.env.TOOLGATE_QUIET = '1';
const GOALS = { toolsListBytes: 12_000, catalogBytes: 70_000, perCallMedianBytes: 1_500 };
const CHROMIUM = '/usr/bin/chromium';
const FORM = readFileSync(join(__dirname, '..', 'test', 'browser', 'pages', 'form.html'));

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

interface Content {
  type: string;
  text?: string;
  data?: string;
}

/** The bytes of a result a model reads: its text, and an image's data as sent. */
function contentBytes(result: { content?: unknown }): number {
  const content = (result.content ?? []) as Content[];
  return content.reduce((n, c) => n + Buffer.byteLength(c.text ?? c.data ?? ''), 0);
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Content[]).map((c) => c.text ?? '').join('\n');
}

async function connect(url: string, token: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** The first ref of a line that matches, from a ui_dump or browser_snapshot text. */
function refOf(text: string, line: RegExp): string {
  const found = text.split('\n').find((l) => line.test(l));
  const ref = found?.match(/\b(f\d+)?e\d+\b/)?.[0];
  if (!ref) throw new Error(`no element matching ${line} in:\n${text.slice(0, 2000)}`);
  return ref;
}

async function peerToolsList(scratch: string): Promise<{ bytes: number; tools: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js'),
      '--headless',
      '--executable-path',
      CHROMIUM,
      '--isolated',
      '--output-dir',
      join(scratch, 'peer-out'),
    ],
    cwd: scratch,
    stderr: 'ignore',
  });
  const peer = new Client({ name: 'toolgate-bench', version: '0.0.0' });
  await peer.connect(transport);
  try {
    const { tools } = await peer.listTools();
    return { bytes: bytes(tools), tools: tools.length };
  } finally {
    await peer.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-bench-context-'));
  const adbPort = await freePort();
  const page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(FORM));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', () => r()));
  const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/form.html`;
  const host = await startHost({
    port: 0,
    dataDir: join(scratch, 'data'),
    adbPort,
    virtualDevice: true,
    env: { ...process.env, TOOLGATE_GITHUB_TOKEN: 'ghp_contextBench0000000000000000000000001' },
  });
  const mcpUrl = host.address.mcp;
  let failed = false;
  try {
    // A client whose token allows every toolset, starting its session in the default profile and
    // turning toolsets on as the task needs them (the data dir's token, which a person has not
    // configured, lists the same default profile but may turn nothing else on).
    const everything = host.clientTokens.create(
      'context-agent',
      host.registry.toolsets().map((s) => s.name),
    );
    const agent = await connect(`${mcpUrl}?toolsets=${DEFAULT_PROFILE.join(',')}`, everything.token, 'context-agent');
    const listed = (await agent.listTools()).tools;
    const toolsListBytes = bytes(listed);
    const unconfigured = await connect(mcpUrl, host.token, 'unconfigured');
    const asDefault = bytes((await unconfigured.listTools()).tools);
    await unconfigured.close();
    if (asDefault !== toolsListBytes) throw new Error(`default profile ${asDefault} B vs ${toolsListBytes} B`);
    const wide = await connect(mcpUrl, everything.token, 'catalog-reader');
    const catalog = (await wide.listTools()).tools;
    const catalogBytes = bytes(catalog);
    await wide.close();
    const peer = await peerToolsList(scratch);

    // The person approves what asks (writing and editing the note), as at the UI.
    const person = answerApprovals(host);
    const calls: Array<{ name: string; bytes: number }> = [];
    const call = async (name: string, args: Record<string, unknown> = {}): Promise<string> => {
      const result = (await agent.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as {
        content?: unknown;
        isError?: boolean;
      };
      const text = textOf(result);
      if (result.isError) throw new Error(`${name} failed: ${text}`);
      calls.push({ name, bytes: contentBytes(result) });
      return text;
    };

    // The fixed task: check the phone, open Settings and scroll it, keep a note in the workspace,
    // then fill in a sign-up form in the browser and read what it says.
    await call('app_list', { which: 'all', filter: 'settings' });
    await call('app_launch', { packageName: 'com.android.settings' });
    await call('wait', { seconds: 0.5, reason: 'Settings opening' });
    const screen = await call('ui_dump');
    await call('ui_swipe', { direction: 'up' });
    await call('ui_tap', { ref: refOf(screen, /clickable/) });
    await call('ui_dump');
    await call('toolset_enable', { toolset: 'files' });
    await call('write_file', {
      path: 'notes/task.md',
      content: '# Task\n\nSettings opened.\nNext: the sign-up form.\n',
      createDirs: true,
    });
    await call('read_file', { path: 'notes/task.md' });
    await call('edit_file', { path: 'notes/task.md', oldText: 'Settings opened.', newText: 'Settings checked.' });
    await call('list_files', { path: 'notes' });
    await call('search_files', { query: 'sign-up', path: 'notes' });
    await call('toolset_enable', { toolset: 'browser' });
    await call('browser_navigate', { url: pageUrl });
    const form = await call('browser_snapshot');
    await call('browser_input', { ref: refOf(form, /textbox "Full name/), text: 'Ada Lovelace' });
    await call('browser_input', { ref: refOf(form, /textbox "Email/), text: 'ada@example.com' });
    await call('browser_toggle', { ref: refOf(form, /checkbox "I accept the terms/) });
    await call('browser_click', { ref: refOf(form, /button "Create account"/) });
    await call('browser_context_summary');
    await call('toolset_list');
    await agent.close();
    person.stop();

    const taskBytes = calls.reduce((n, c) => n + c.bytes, 0);
    const perCallMedianBytes = median(calls.map((c) => c.bytes));
    console.log(`tools/list, default profile: ${toolsListBytes} B for ${listed.length} tools`);
    console.log(`tools/list, whole catalog:   ${catalogBytes} B for ${catalog.length} tools`);
    console.log(
      `@playwright/mcp tools/list:   ${peer.bytes} B for ${peer.tools} tools; per tool ` +
        `ours ${Math.round(catalogBytes / catalog.length)} B, theirs ${Math.round(peer.bytes / peer.tools)} B ` +
        `(ratio ${(catalogBytes / catalog.length / (peer.bytes / peer.tools)).toFixed(2)})`,
    );
    console.log('call                    | bytes read');
    for (const c of calls) console.log(`${c.name.padEnd(23)} | ${c.bytes}`);
    console.log(`task: ${calls.length} calls, ${taskBytes} B, median ${perCallMedianBytes} B a call`);
    const measured = { toolsListBytes, catalogBytes, perCallMedianBytes };
    for (const [key, goal] of Object.entries(GOALS)) {
      const value = measured[key as keyof typeof measured];
      const met = value <= goal;
      if (!met) failed = true;
      console.log(`${key}: ${value} (goal ≤ ${goal}) ${met ? 'met' : 'MISSED'}`);
    }
    console.log(JSON.stringify({ bench: 'context', toolsListBytes, catalogBytes, taskBytes, perCallMedianBytes }));
  } finally {
    await host.close();
    await killAdbServer(adbPort);
    page.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
