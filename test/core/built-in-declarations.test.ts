/**
 * Rule: how the pipeline treats a built-in tool (approval by risk, destructiveHint and self-gating;
 * retry by readOnlyHint and idempotentHint; the run policy; what the UI and `_meta` show) does not
 * move when the tool's declaration moves. `test/fixtures/built-in-declarations.json` was computed
 * from the catalog as it stood before built-in tools declared their hints next to their schemas
 * (when most of it was still inferred from id tables); every built-in tool listed there must keep
 * exactly those values. Every built-in tool, a new one too, declares its category, risk and the
 * five hints itself: nothing of a built-in tool is inferred from its id.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPolicyResolver } from '../../tools/core/pipeline/run-policy';
import type { Tool } from '../../tools/core/tool';
import { type TestHost, startTestHost, withGithubToken } from '../host/harness';

type Declaration = Record<string, unknown>;
const BEFORE = JSON.parse(readFileSync(join(__dirname, '../fixtures/built-in-declarations.json'), 'utf8')) as Record<
  string,
  Declaration
>;

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost(withGithubToken());
});
afterAll(async () => {
  await t?.dispose();
});

function declarationOf(tool: Tool, policyOf: ReturnType<typeof runPolicyResolver>): Declaration {
  const m = tool.metadata;
  return {
    category: m.category,
    risk: m.risk,
    tags: m.tags,
    ...m.annotations,
    selfGated: tool.selfGated,
    runPolicy: policyOf(tool).name,
  };
}

describe('the built-in catalog', () => {
  it('declares the category, risk, four hints and sensitiveAction of every tool', () => {
    const undeclared = t.host.registry
      .list()
      .filter((tool) => tool.metadata.inferred.length > 0)
      .map((tool) => `${tool.id}: ${tool.metadata.inferred.join(', ')}`);
    expect(undeclared).toEqual([]);
  });

  it('still has every tool the snapshot lists', () => {
    const ids = new Set(t.host.registry.ids());
    expect(Object.keys(BEFORE).filter((id) => !ids.has(id))).toEqual([]);
  });

  it.each(Object.keys(BEFORE))('keeps the risk, category, tags, hints, self-gating and run policy of %s', (id) => {
    const tool = t.host.registry.get(id);
    expect(tool, id).toBeDefined();
    expect(declarationOf(tool as Tool, runPolicyResolver())).toEqual(BEFORE[id]);
  });
});
