/**
 * Rule: memory_recent_episodes tells each recent agent session as a story from the traces: the
 * client, start and end, the tools in the order called with their outcomes, the approvals asked
 * and how they were answered, and the memories written in it (ids and roles) — and no argument
 * text, since the traces keep none. Here a host runs a scripted session, then another agent asks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../tools/memory';
import { type TestHost, connectClient, startTestHost } from '../host/harness';

let t: TestHost;
let reviewer: Client;
let memorizedId: number;
const MARKER = 'MARKER-3f9a-do-not-leak';

beforeAll(async () => {
  t = await startTestHost();
  writeFileSync(join(t.dataDir, 'workspace', `${MARKER}.txt`), 'scratch');
  const agent = await connectClient(t.host, 'scripted-agent');
  await agent.callTool({ name: 'text_transform', arguments: { operation: 'upper', text: MARKER } });
  const memo = await agent.callTool({
    name: 'memorize',
    arguments: { text: `The answer is ${MARKER}`, key: `k.${MARKER}`, role: 'fact' },
  });
  memorizedId = (memo.structuredContent as { id: number }).id;
  await agent.callTool({ name: 'calculate', arguments: { expression: `${MARKER} +` } });
  // Two calls that wait for a person: the first denied, the second approved.
  const decisions = ['deny', 'approve_once'] as const;
  let n = 0;
  const sub = t.host.events.on((e) => {
    if (e.type === 'approval-pending')
      void t.host.api.decideApproval({ approvalId: e.approval.approvalId, decision: decisions[n++] ?? 'deny' });
  });
  await agent.callTool({ name: 'delete_file', arguments: { path: `${MARKER}.txt` } });
  await agent.callTool({ name: 'delete_file', arguments: { path: `${MARKER}.txt` } });
  sub.dispose();
  await agent.close();
  // What the person does in the UI is not an agent's episode.
  await t.host.api.callTool({ toolId: 'uuid_generate', args: {} });
  reviewer = await connectClient(t.host, 'reviewer');
});
afterAll(async () => {
  await reviewer?.close();
  await t?.dispose();
});

async function episodes(args: Record<string, unknown>) {
  const r = await reviewer.callTool({ name: 'memory_recent_episodes', arguments: args });
  return {
    r,
    s: r.structuredContent as { count: number; episodes: Episode[]; code?: string; data?: { fields?: string[] } },
  };
}

describe('an episode tells one agent session', () => {
  it('lists the tools in order with outcomes, the approvals and what was memorized', async () => {
    const { s } = await episodes({});
    expect(s.count).toBe(1);
    const [e] = s.episodes;
    expect(e).toMatchObject({
      client: 'default',
      session: expect.stringMatching(/^default#\d+$/),
      calls: 5,
      moreCalls: 0,
      outcomes: { success: 3, error: 2, cancelled: 0 },
      approvals: { asked: 2, approved: 1, denied: 1, unanswered: 0 },
      memorized: [{ id: memorizedId, role: 'fact' }],
    });
    expect(e?.tools.map((c) => [c.tool, c.outcome, c.errorCode ?? null])).toEqual([
      ['text_transform', 'success', null],
      ['memorize', 'success', null],
      ['calculate', 'error', 'INVALID_ARGUMENT'],
      ['delete_file', 'error', 'PERMISSION_DENIED'],
      ['delete_file', 'success', null],
    ]);
    expect(e?.approvals.items.map((a) => [a.tool, a.decision])).toEqual([
      ['delete_file', 'deny'],
      ['delete_file', 'approve_once'],
    ]);
    expect(Date.parse(e?.start ?? '')).toBeLessThanOrEqual(Date.parse(e?.end ?? ''));
  });

  it('holds no argument text, in its structure or its words', async () => {
    const { r } = await episodes({ limit: 20 });
    expect(JSON.stringify(r)).not.toContain(MARKER);
  });

  it('keeps to sessions active since a given time', async () => {
    expect((await episodes({ since: '2999-01-01T00:00:00Z' })).s.count).toBe(0);
    const since2000 = (await episodes({ since: '2000-01-01T00:00:00Z' })).s;
    expect(since2000.episodes.map((e) => e.calls)).toContain(5);
  });

  it('refuses a since that is no time, naming the field', async () => {
    expect((await episodes({ since: 'last tuesday' })).s).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['since'] },
    });
    expect((await episodes({ limit: 0 })).s).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['limit'] } });
  });

  it("counts the reviewer's own finished calls as its own, newer episode", async () => {
    const { s } = await episodes({ limit: 5 });
    expect(s.episodes.map((e) => e.calls)).toEqual([expect.any(Number), 5]);
    expect(s.episodes[0]?.tools.every((c) => c.tool === 'memory_recent_episodes')).toBe(true);
  });
});
