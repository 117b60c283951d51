/**
 * Rule: skill_install also takes an https URL of an archive (zip or gzip, by its name or its first
 * bytes), downloaded with a size cap and checked like any other before it lands; http, a redirect
 * off https and a download past the cap are refused. skill_search ranks the installed skills and
 * the configured sources (a workspace folder, an https index) by BM25 over their words, and says
 * for each how to use or install it. Run here through the pipeline with a fetch that trusts the
 * test's own TLS server (the host's default refuses loopback: test/security/skill-download.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pipeline, createPipeline } from '../../tools/core/pipeline';
import { ToolRegistry } from '../../tools/core/registry';
import type { ToolResult } from '../../tools/core/result';
import { InMemorySkillStore, skillsFamily } from '../../tools/skills';
import { utilityTools } from '../../tools/utility';
import { tarGz, zip } from './support/archives';
import { type LocalHttps, startHttps } from './support/https-server';
import { shoutSkill, writeTree } from './support/skill-fixtures';
import { SelfGuard } from '../../tools/common/self-guard';

let dir: string;
let server: LocalHttps;
let pipeline: Pipeline;
let indexStatus = 200;
const asked: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-skills-url-'));
  const kit = zip([{ name: 'url-kit/SKILL.md', data: shoutSkill('url-kit', 'Shouts text downloaded from the web.') }]);
  const sniffed = tarGz([{ name: 'sniffed-kit/SKILL.md', data: shoutSkill('sniffed-kit') }]);
  server = await startHttps({
    '/kit.zip': (_q, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(kit),
    '/download/latest': (_q, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(sniffed),
    '/off-https.zip': (_q, res) => res.writeHead(302, { location: 'http://127.0.0.1:9/kit.zip' }).end(),
    '/huge.zip': (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/zip' });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 21; i++) res.write(chunk);
      res.end();
    },
    '/index.json': (_q, res) =>
      res.writeHead(indexStatus, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          skills: [
            {
              name: 'pdf-tables',
              description: 'Extracts tables from PDF files into CSV.',
              url: `${server.url}/pdf.zip`,
            },
            { name: 'insecure', description: 'Served over plain http tables.', url: 'http://example.com/x.zip' },
          ],
        }),
      ),
  });
  const registry = new ToolRegistry();
  registry.registerAll(utilityTools());
  writeTree(join(dir, 'workspace', 'sources', 'invoice-tables'), {
    'SKILL.md': shoutSkill('invoice-tables', 'Reads tables of invoices and totals them.'),
  });
  const skills = skillsFamily({
    self: new SelfGuard(),
    registry,
    store: new InMemorySkillStore(),
    dir: join(dir, 'skills'),
    files: { workspaceRoot: join(dir, 'workspace') },
    fetchImpl: server.fetch,
    sourceFolder: () => 'sources',
    indexUrl: () => `${server.url}/index.json`,
    seedBundled: false,
  });
  registry.registerAll(skills.tools);
  await skills.start();
  pipeline = createPipeline(registry, {
    approval: {
      decide: async (request) => {
        asked.push(request.toolId);
        return { decision: 'approve_once' };
      },
    },
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (toolId: string, args: unknown): Promise<ToolResult> => pipeline.executor.execute({ toolId, args });
const value = (r: ToolResult) => (r.ok ? (r.structured as Record<string, unknown>) : r.error);

describe('installing from an https URL', () => {
  it('downloads, checks and installs a zip, after the person approved', async () => {
    const r = await run('skill_install', { source: `${server.url}/kit.zip` });
    expect(value(r)).toMatchObject({
      installed: 'url-kit',
      skill: { source: `${server.url}/kit.zip`, origin: 'installed' },
    });
    expect(asked).toEqual(['skill_install']);
    expect(value(await run('skill_url-kit_shout', { text: 'from the web' }))).toMatchObject({ ok: true });
  });

  it('tells a gzip archive from its first bytes when the URL names no extension', async () => {
    expect(value(await run('skill_install', { source: `${server.url}/download/latest` }))).toMatchObject({
      installed: 'sniffed-kit',
    });
  });

  it('refuses plain http before any request is made', async () => {
    const before = server.hits.length;
    const r = await run('skill_install', { source: `http://127.0.0.1:1/kit.zip` });
    expect(value(r)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['source'] },
      message: expect.stringMatching(/https only/),
    });
    expect(server.hits.length).toBe(before);
  });

  it('refuses a redirect that leaves https', async () => {
    const r = await run('skill_install', { source: `${server.url}/off-https.zip` });
    expect(value(r)).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('redirected to http:'),
    });
  });

  it('stops a download past 20 MiB', async () => {
    const r = await run('skill_install', { source: `${server.url}/huge.zip` });
    expect(value(r)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('archives of at most 20971520 bytes'),
    });
  });

  it('answers NOT_FOUND for a URL that has nothing', async () => {
    expect(value(await run('skill_install', { source: `${server.url}/missing.zip` }))).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('skill_search', () => {
  it('ranks installed skills and both sources by their words, saying how to use or install each', async () => {
    const r = value(await run('skill_search', { query: 'tables' })) as {
      ranking: string;
      results: Array<{ name: string; found: string; installed: boolean; use: string; source?: string }>;
    };
    expect(r.ranking).toMatch(/bm25.*no embeddings/);
    expect(r.results.map((x) => [x.name, x.found])).toEqual([
      ['pdf-tables', 'index'],
      ['invoice-tables', 'folder'],
    ]);
    expect(r.results[0]?.use).toBe(`Install it with skill_install {"source":"${server.url}/pdf.zip"}.`);
    expect(r.results[1]?.use).toBe('Install it with skill_install {"source":"sources/invoice-tables"}.');
  });

  it('finds an installed skill by words of its description and says how to read it', async () => {
    const r = value(await run('skill_search', { query: 'shouts text from the web' })) as {
      results: Array<{ name: string; found: string; use: string }>;
    };
    expect(r.results[0]).toMatchObject({
      name: 'url-kit',
      found: 'installed',
      use: expect.stringContaining("the prompt 'url-kit'"),
    });
  });

  it('reports a source that fails beside the results instead of failing', async () => {
    indexStatus = 500;
    const r = value(await run('skill_search', { query: 'tables invoices' })) as {
      results: Array<{ name: string }>;
      sourceErrors: Array<{ source: string }>;
    };
    indexStatus = 200;
    expect(r.results.map((x) => x.name)).toEqual(['invoice-tables']);
    expect(r.sourceErrors).toEqual([expect.objectContaining({ source: `${server.url}/index.json` })]);
  });

  it('finds nothing for words no skill has, and refuses an empty query', async () => {
    expect(value(await run('skill_search', { query: 'zebra' }))).toMatchObject({ count: 0, results: [] });
    expect(value(await run('skill_search', { query: '' }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['query'] },
    });
  });
});
