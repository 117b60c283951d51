/**
 * Rule: the GitHub tools are in the catalog exactly while a token is set (TOOLGATE_GITHUB_TOKEN,
 * or one the person stored in Settings), announced with tools/list_changed when they come and go.
 * The token is write-only: no status, tool list, result, span, audit entry, setting, log line or
 * database page ever holds it; headless it is kept in a file of the data dir only its owner can
 * read, which no file tool may open. Writes wait for the person, and a denied one never reaches
 * GitHub.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITHUB_TOOL_IDS } from '../../tools/github';
import { type TestHost, connectClient, startTestHost } from '../host/harness';
import { answerApprovals } from '../skills/support/approvals';
import { type GithubServer, startGithubServer } from './support/github-server';

const TOKEN = 'ghp_storedSecret9f1c2e7a5b3d8f0e6c4a2b1d9';
let gh: GithubServer;
let t: TestHost;
let client: Client;
let listChanged = 0;

beforeAll(async () => {
  gh = await startGithubServer(TOKEN);
  const env = { ...process.env };
  delete env.TOOLGATE_GITHUB_TOKEN;
  t = await startTestHost({ env });
  await t.host.api.updateSettings({ changes: { githubApiUrl: gh.url } });
  client = await connectClient(t.host, 'github-watcher');
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void listChanged++);
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
  await gh?.close();
});

const names = async () => (await client.listTools()).tools.map((x) => x.name);

describe('registration follows the token', () => {
  it('has no GitHub tools and says so while no token is set', async () => {
    expect(await t.host.api.githubStatus({})).toEqual({
      tokenSet: false,
      source: 'none',
      storage: 'a file in the data dir, readable by its owner only',
      apiUrl: gh.url,
      registered: false,
    });
    expect((await names()).filter((n) => n.startsWith('github_'))).toEqual([]);
  });

  it('registers all seven when the person stores a token, announced to agents, keeping it 0600', async () => {
    const before = listChanged;
    const status = await t.host.api.setGithubToken({ token: TOKEN });
    expect(status).toMatchObject({ tokenSet: true, source: 'stored', registered: true });
    await expect.poll(() => listChanged).toBeGreaterThan(before);
    expect((await names()).filter((n) => n.startsWith('github_')).sort()).toEqual([...GITHUB_TOOL_IDS].sort());
    expect(statSync(join(t.dataDir, 'github-token')).mode & 0o777).toBe(0o600);
  });

  it('refuses something that is no token, naming the field', async () => {
    await expect(async () => t.host.api.setGithubToken({ token: 'has spaces in it' })).rejects.toMatchObject({
      fields: ['token'],
    });
  });

  it('calls GitHub with the stored token', async () => {
    const r = await client.callTool({ name: 'github_get_user', arguments: {} });
    expect(r.structuredContent).toMatchObject({ login: 'octokit-fixture-user-a' });
    expect(gh.received.at(-1)?.authorization).toBe(`token ${TOKEN}`);
  });

  it('asks before a write, and a denied write never reaches GitHub', async () => {
    const approver = answerApprovals(t.host, 'deny');
    const before = gh.received.length;
    const r = await client.callTool({
      name: 'github_create_issue',
      arguments: { owner: 'octokit-fixture-org', repo: 'hello-world', title: 'should not be filed' },
    });
    approver.stop();
    expect(approver.asked).toEqual(['github_create_issue']);
    expect(r.structuredContent).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(gh.received.length).toBe(before);
  });

  it('lets no file tool reach the token file from the workspace', async () => {
    const r = await client.callTool({ name: 'read_file', arguments: { path: '../github-token' } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });
});

describe('the token never shows', () => {
  it('is in no status, tool list, span, audit entry, setting, log or database file', async () => {
    const exposed = [
      JSON.stringify(await t.host.api.githubStatus({})),
      JSON.stringify(await client.listTools()),
      JSON.stringify(await t.host.api.listTools({})),
      JSON.stringify(await t.host.api.listSpans({ limit: 1000 })),
      JSON.stringify(await t.host.api.auditLog({ limit: 1000 })),
      JSON.stringify(await t.host.api.getSettings({})),
      JSON.stringify(await t.host.api.info({})),
    ];
    for (const text of exposed) expect(text).not.toContain(TOKEN);
    for (const log of readdirSync(join(t.dataDir, 'logs')))
      expect(readFileSync(join(t.dataDir, 'logs', log), 'utf8')).not.toContain(TOKEN);
    for (const f of readdirSync(t.dataDir).filter((n) => n.startsWith('toolgate.db')))
      expect(readFileSync(join(t.dataDir, f)).includes(Buffer.from(TOKEN))).toBe(false);
  });

  it('is not echoed when GitHub refuses it', async () => {
    gh.failWith('unauthorized');
    const r = await client.callTool({ name: 'github_list_repos', arguments: {} });
    gh.failWith(undefined);
    expect(r.structuredContent).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });
});

describe('removing the token', () => {
  it('unregisters the tools at once, announced, and deletes the file', async () => {
    const before = listChanged;
    expect(await t.host.api.setGithubToken({ token: null })).toMatchObject({
      tokenSet: false,
      source: 'none',
      registered: false,
    });
    await expect.poll(() => listChanged).toBeGreaterThan(before);
    expect((await names()).filter((n) => n.startsWith('github_'))).toEqual([]);
    expect(readdirSync(t.dataDir)).not.toContain('github-token');
  });

  it('keeps the tools while TOOLGATE_GITHUB_TOKEN is set, whatever is stored', async () => {
    const envHost = await startTestHost({ env: { ...process.env, TOOLGATE_GITHUB_TOKEN: TOKEN } });
    try {
      expect(await envHost.host.api.githubStatus({})).toMatchObject({
        tokenSet: true,
        source: 'env',
        registered: true,
      });
      expect(await envHost.host.api.setGithubToken({ token: null })).toMatchObject({ source: 'env', registered: true });
      expect(envHost.host.registry.has('github_search_code')).toBe(true);
    } finally {
      await envHost.dispose();
    }
  });
});
