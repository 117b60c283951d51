/**
 * Rule: what a model reads of Toolgate before it does anything stays small. Through a real MCP
 * client, the tools/list answer (the JSON of its `tools`) of the default profile (device,
 * orchestration and the toolset tools) is at most 12 KB, and the whole catalog, every toolset on
 * and a GitHub token set, at most 70 KB. A tool that pushes past a budget fails this test, which names the biggest
 * tools and toolsets, so the cut lands where the bytes are.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, withGithubToken } from './harness';

const DEFAULT_PROFILE_BUDGET = 12_000;
const CATALOG_BUDGET = 70_000;

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

async function listed(t: TestHost): Promise<McpTool[]> {
  const client = await connectClient(t.host, 'budget');
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** The biggest tools and toolsets, for the failure message. */
function offenders(t: TestHost, tools: McpTool[]): string {
  const perTool = tools.map((x) => ({ name: x.name, bytes: bytes(x) })).sort((a, b) => b.bytes - a.bytes);
  const perToolset = new Map<string, number>();
  for (const x of tools) {
    const name = t.host.registry.toolsetOf(x.name)?.name ?? '(none)';
    perToolset.set(name, (perToolset.get(name) ?? 0) + bytes(x));
  }
  const sets = [...perToolset].sort((a, b) => b[1] - a[1]).map(([n, b]) => `${n} ${b}`);
  const top = perTool.slice(0, 10).map((x) => `${x.name} ${x.bytes}`);
  return `biggest tools: ${top.join(', ')}; by toolset: ${sets.join(', ')}`;
}

describe('the tools/list budget', () => {
  let every: TestHost;
  let profile: TestHost;
  beforeAll(async () => {
    every = await startTestHost(withGithubToken());
    profile = await startTestHost({ defaultClient: 'default profile' });
  });
  afterAll(async () => {
    await every?.dispose();
    await profile?.dispose();
  });

  it(`keeps the default profile at most ${DEFAULT_PROFILE_BUDGET} bytes`, async () => {
    const tools = await listed(profile);
    expect(new Set(tools.map((x) => profile.host.registry.toolsetOf(x.name)?.name))).toEqual(
      new Set(['device', 'orchestration', 'toolsets']),
    );
    const total = bytes(tools);
    expect(total, `default profile: ${total} bytes; ${offenders(profile, tools)}`).toBeLessThanOrEqual(
      DEFAULT_PROFILE_BUDGET,
    );
  });

  it(`keeps the whole catalog at most ${CATALOG_BUDGET} bytes`, async () => {
    const tools = await listed(every);
    expect(tools).toHaveLength(every.host.registry.size);
    expect(tools.map((x) => x.name)).toContain('github_write_file');
    const total = bytes(tools);
    expect(total, `whole catalog: ${total} bytes; ${offenders(every, tools)}`).toBeLessThanOrEqual(CATALOG_BUDGET);
  });
});
