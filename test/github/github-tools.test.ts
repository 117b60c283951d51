/**
 * Rule: with a token set, the seven GitHub tools answer from GitHub's real responses (recorded by
 * @octokit/fixtures, served by a local server at the configured API URL): users, repositories,
 * files decoded and capped (binary and oversized files described, not dumped), bounded
 * pagination, writes with a commit and an approval. Every GitHub failure becomes a code a model
 * can act on: 401 PERMISSION_DENIED (token missing, expired or lacking scope), 403/429 rate limits
 * RATE_LIMITED with the reset time, other 403 PERMISSION_DENIED with the scope needed, 404
 * NOT_FOUND, 409 and 422 INVALID_ARGUMENT naming the field to fix.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost } from '../host/harness';
import { answerApprovals } from '../skills/support/approvals';
import { type ErrorKind, type GithubServer, startGithubServer } from './support/github-server';

const TOKEN = 'ghp_fixtureToken0000000000000000000000001';
let gh: GithubServer;
let t: TestHost;
let client: Client;
let approver: ReturnType<typeof answerApprovals>;

beforeAll(async () => {
  gh = await startGithubServer(TOKEN);
  t = await startTestHost({ env: { ...process.env, TOOLGATE_GITHUB_TOKEN: TOKEN } });
  await t.host.api.updateSettings({ changes: { githubApiUrl: gh.url } });
  client = await connectClient(t.host, 'github-agent');
  approver = answerApprovals(t.host);
});
afterAll(async () => {
  approver?.stop();
  await client?.close();
  await t?.dispose();
  await gh?.close();
});

type Answer = Record<string, unknown> & {
  code?: string;
  message?: string;
  hint?: string;
  data?: Record<string, unknown>;
};
async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  const r = await client.callTool({ name, arguments: args });
  return r.structuredContent as Answer;
}
const repo = { owner: 'octokit-fixture-org', repo: 'hello-world' };

describe('the GitHub tools answer from recorded responses', () => {
  it("github_get_user returns the token's account, sending the token as GitHub expects", async () => {
    expect(await call('github_get_user', {})).toMatchObject({
      login: 'octokit-fixture-user-a',
      id: 31898046,
      type: 'User',
      authenticated: true,
    });
    expect(gh.received.at(-1)).toMatchObject({ method: 'GET', path: '/user', authorization: `token ${TOKEN}` });
    expect(await call('github_get_user', { username: 'octocat' })).toMatchObject({
      login: 'octocat',
      authenticated: false,
    });
  });

  it('github_list_repos lists the repositories of the token, a user or an organization', async () => {
    const own = await call('github_list_repos', {});
    expect(own).toMatchObject({
      count: 1,
      more: false,
      repositories: [{ fullName: 'octokit-fixture-org/hello-world', private: false }],
    });
    await call('github_list_repos', { owner: 'octokit-fixture-org', ownerType: 'org', limit: 5 });
    expect(gh.received.at(-1)).toMatchObject({
      path: '/orgs/octokit-fixture-org/repos',
      query: { per_page: '5', sort: 'updated' },
    });
  });

  it('github_read_file decodes a text file and returns its sha', async () => {
    expect(await call('github_read_file', { ...repo, path: 'README.md' })).toMatchObject({
      type: 'file',
      path: 'README.md',
      sha: '93a078d1c3f76aa1ca11def8f882a06df1d4a01b',
      encoding: 'utf-8',
      truncated: false,
      content: '# hello-world',
    });
    expect(await call('github_read_file', { ...repo, path: 'README.md', maxChars: 5 })).toMatchObject({
      content: '# hel',
      truncated: true,
      totalChars: 13,
    });
  });

  it('github_read_file describes a binary or oversized file instead of dumping it, and lists a folder', async () => {
    const png = await call('github_read_file', { ...repo, path: 'logo.png' });
    expect(png).toMatchObject({ type: 'file', binary: true, size: 8 });
    expect(png).not.toHaveProperty('content');
    expect(await call('github_read_file', { ...repo, path: 'big.bin' })).toMatchObject({
      tooLarge: true,
      size: 5_000_000,
    });
    expect(await call('github_read_file', { ...repo, path: 'src' })).toMatchObject({
      type: 'dir',
      entries: [{ name: 'README.md', type: 'file', size: 13 }],
    });
  });

  it('github_write_file commits after approval, with the content, sha and branch given', async () => {
    approver.asked.length = 0;
    const r = await call('github_write_file', {
      owner: 'octokit-fixture-org',
      repo: 'create-file',
      path: 'test.txt',
      content: 'Test content',
      message: 'create test.txt',
      branch: 'main',
    });
    expect(approver.asked).toEqual(['github_write_file']);
    expect(r).toMatchObject({ created: true, path: 'test.txt', sha: '3f3f005b29247e51a4f4d6b8ce07b67646cd6074' });
    expect(gh.received.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/repos/octokit-fixture-org/create-file/contents/test.txt',
      body: { message: 'create test.txt', content: 'VGVzdCBjb250ZW50', branch: 'main' },
    });
  });

  it('github_create_issue opens an issue after approval', async () => {
    approver.asked.length = 0;
    const r = await call('github_create_issue', {
      owner: 'octokit-fixture-org',
      repo: 'add-labels-to-issue',
      title: 'Issue without a label',
    });
    expect(approver.asked).toEqual(['github_create_issue']);
    expect(r).toMatchObject({ number: 1, title: 'Issue without a label', state: 'open' });
  });

  it('github_list_issues follows the recorded pagination only as far as the limit needs', async () => {
    const before = gh.received.length;
    const seven = await call('github_list_issues', { owner: 'octokit-fixture-org', repo: 'paginate-issues', limit: 7 });
    expect(seven).toMatchObject({ count: 7, more: true });
    expect((seven.issues as Array<{ number: number }>).map((i) => i.number)).toEqual([13, 12, 11, 10, 9, 8, 7]);
    expect(gh.received.slice(before).map((r) => r.path)).toEqual([
      '/repos/octokit-fixture-org/paginate-issues/issues',
      '/repositories/1000/issues',
      '/repositories/1000/issues',
    ]);
    const all = await call('github_list_issues', { owner: 'octokit-fixture-org', repo: 'paginate-issues', limit: 100 });
    expect(all).toMatchObject({ count: 13, more: false });
  });

  it('github_search_code returns repository, path and the matched fragment', async () => {
    expect(await call('github_search_code', { query: 'hello repo:octokit-fixture-org/hello-world' })).toMatchObject({
      totalCount: 1,
      results: [{ repository: 'octokit-fixture-org/hello-world', path: 'README.md', fragments: ['# hello-world'] }],
    });
    expect(gh.received.at(-1)).toMatchObject({
      path: '/search/code',
      query: { q: 'hello repo:octokit-fixture-org/hello-world' },
    });
  });
});

const TOOLS: Array<[string, Record<string, unknown>]> = [
  ['github_get_user', {}],
  ['github_list_repos', {}],
  ['github_read_file', { ...repo, path: 'README.md' }],
  ['github_write_file', { ...repo, path: 'README.md', content: 'x', message: 'm' }],
  ['github_create_issue', { ...repo, title: 't' }],
  ['github_list_issues', repo],
  ['github_search_code', { query: 'hello' }],
];

function expectedFor(kind: ErrorKind, tool: string): Record<string, unknown> {
  switch (kind) {
    case 'unauthorized':
      return { code: 'PERMISSION_DENIED', message: expect.stringContaining('token missing, expired or lacking scope') };
    case 'rate-limited':
      return {
        code: 'RATE_LIMITED',
        message: expect.stringContaining('resets at 2030-01-01T12:00:00.000Z'),
        data: expect.objectContaining({ limit: 'primary', resetAt: '2030-01-01T12:00:00.000Z' }),
      };
    case 'secondary-rate-limit':
    case 'too-many-requests':
      return {
        code: 'RATE_LIMITED',
        hint: expect.stringContaining('Wait 60 s'),
        data: expect.objectContaining({ limit: 'secondary', retryAfterSeconds: 60 }),
      };
    case 'missing-scope':
      return {
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining('needs the scope(s) "repo"'),
        data: expect.objectContaining({ neededScopes: 'repo' }),
      };
    case 'not-found':
      return { code: 'NOT_FOUND', hint: expect.stringContaining('github_list_repos') };
    case 'conflict':
      // On a listing GitHub answers 409 for an empty repository, and Octokit's pagination reads it so.
      if (tool === 'github_list_repos' || tool === 'github_list_issues') return { count: 0, more: false };
      return { code: 'INVALID_ARGUMENT', data: expect.objectContaining({ status: 409, fields: ['sha'] }) };
    case 'validation': {
      const fields = tool === 'github_write_file' ? ['sha'] : tool === 'github_create_issue' ? ['title'] : ['color'];
      return { code: 'INVALID_ARGUMENT', data: expect.objectContaining({ status: 422, fields }) };
    }
    default:
      return {};
  }
}

const KINDS: ErrorKind[] = [
  'unauthorized',
  'rate-limited',
  'secondary-rate-limit',
  'too-many-requests',
  'missing-scope',
  'not-found',
  'conflict',
  'validation',
];

describe("GitHub's failures become codes a model can act on, for every tool", () => {
  for (const kind of KINDS) {
    it.each(TOOLS)(`${kind}: %s`, async (tool, args) => {
      gh.failWith(kind);
      try {
        expect(await call(tool, args)).toMatchObject(expectedFor(kind, tool));
      } finally {
        gh.failWith(undefined);
      }
    });
  }

  it('tells a stale sha from a missing one on github_write_file', async () => {
    gh.failWith('conflict');
    const r = await call('github_write_file', {
      ...repo,
      path: 'README.md',
      content: 'x',
      message: 'm',
      sha: '93a078d1c3f76aa1ca11def8f882a06df1d4a01b',
    });
    gh.failWith(undefined);
    expect(r.hint).toContain('read it again with github_read_file');
  });

  it('answers a GitHub server error, after the retries, with EXECUTION_FAILED', async () => {
    gh.failWith('server-error');
    const before = gh.received.length;
    const r = await call('github_get_user', {});
    gh.failWith(undefined);
    expect(r).toMatchObject({ code: 'EXECUTION_FAILED', data: expect.objectContaining({ status: 502 }) });
    // Octokit's retry plugin tries twice, and the pipeline retries the read-only call twice more.
    expect(gh.received.length - before).toBe(6);
  });

  it('answers an unreachable API URL with EXECUTION_FAILED naming the setting', async () => {
    await t.host.api.updateSettings({ changes: { githubApiUrl: 'http://127.0.0.1:9' } });
    const r = await call('github_write_file', { ...repo, path: 'a.txt', content: 'x', message: 'm' });
    await t.host.api.updateSettings({ changes: { githubApiUrl: gh.url } });
    expect(r).toMatchObject({
      code: 'EXECUTION_FAILED',
      message: expect.stringContaining('could not be reached'),
      hint: expect.stringContaining('Settings → GitHub'),
    });
  });

  it('refuses bad arguments before calling GitHub, naming the field', async () => {
    const before = gh.received.length;
    expect(await call('github_read_file', { ...repo, path: '../secrets' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['path'] },
    });
    expect(await call('github_list_issues', { ...repo, limit: 1000 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['limit'] },
    });
    expect(
      await call('github_write_file', { ...repo, path: 'a', content: 'x', message: 'm', sha: 'not-a-sha' }),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['sha'] },
    });
    expect(gh.received.length).toBe(before);
  });
});
