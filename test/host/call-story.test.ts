/**
 * Rule: a call explains itself. Its detail gives each attempt's error in its own (cleaned) words,
 * the hint its caller read, how it ended, its breaker at the time and the approval that preceded
 * it; while the host runs, its arguments from memory, from which a person can run it again through
 * the pipeline (traced as a replay). Its bug report is one JSON document with its spans, breaker,
 * approvals, the environment when it arrived and the versions, and no argument text. After a
 * restart the story stays and the arguments are gone: no replay.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerKey } from '../../tools/core/pipeline';
import { startHost } from '../../tools/host/host';
import { findLeak } from '../support/argument-runs';
import { closedPortUrl } from '../ui/support/closed-port';
import { freePort } from '../support/private-adb';
import { type TestHost, connectClient, startTestHost } from './harness';

let t: TestHost;
let adbPort: number;
let client: Client;
let url: string;
const callIds: Record<string, string> = {};

function callIdOf(result: unknown): string {
  const id = (result as { _meta?: Record<string, string> })._meta?.['toolgate/callId'];
  if (!id) throw new Error(`no call id in ${JSON.stringify(result)}`);
  return id;
}

beforeAll(async () => {
  adbPort = await freePort();
  t = await startTestHost({ adbPort });
  client = await connectClient(t.host, 'story-agent');
  url = `${await closedPortUrl()}reports/q3-confidential-7f3a9c?token=tk_live_55aa77bb`;
  callIds.fetch = callIdOf(await client.callTool({ name: 'web_fetch', arguments: { url } }));
  const approved = client.callTool({
    name: 'write_file',
    arguments: { path: 'story.txt', content: 'kept secret 1234' },
  });
  for (let i = 0; i < 100 && (await t.host.api.pendingApprovals({})).length === 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  const [pending] = await t.host.api.pendingApprovals({});
  if (pending) await t.host.api.decideApproval({ approvalId: pending.approvalId, decision: 'approve_once' });
  callIds.write = callIdOf(await approved);
  callIds.batch = callIdOf(
    await client.callTool({
      name: 'tool_batch_run',
      arguments: {
        steps: [
          { tool: 'json_transform', args: { data: { items: [{ id: 41 }, { id: 42 }] }, pipeline: [] } },
          { tool: 'calculate', args: { expression: '{0.items[1].id} + 1' } },
        ],
      },
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe("a failed call's detail", () => {
  it('gives each attempt with its error in its own words, cleaned of the URL, and the hint read', async () => {
    const d = await t.host.api.callDetail({ callId: callIds.fetch! });
    expect(d.spans.map((s) => s.attempt)).toEqual([1, 2, 3]);
    expect(d.callClass).toBe('toolFailed');
    const last = d.spans.at(-1)!;
    expect(last.errorCode).toBe('EXECUTION_FAILED');
    expect(last.errorText).toMatch(/refused|ECONNREFUSED/i);
    expect(last.errorText).toContain('‹url›');
    expect(last.backoffMs).toBeGreaterThanOrEqual(0);
    expect(d.hint?.source).toBe('call');
    expect(d.hint?.text.length).toBeGreaterThan(10);
  });

  it('names its own breaker (its target known from the remembered arguments) and its state at the time', async () => {
    const d = await t.host.api.callDetail({ callId: callIds.fetch! });
    expect(d.breakers).toEqual([
      expect.objectContaining({
        key: breakerKey('web_fetch', new URL(url).origin),
        exact: true,
        atStart: 'CLOSED',
        atEnd: 'CLOSED',
      }),
    ]);
  });

  it('shows the arguments from memory while the host runs', async () => {
    const d = await t.host.api.callDetail({ callId: callIds.fetch! });
    expect(d.memory).toMatchObject({
      args: { url },
      sessionId: 'default#1',
      requester: { kind: 'mcp', label: 'story-agent 1.0.0' },
    });
  });

  it('shows the approval that preceded a call', async () => {
    const d = await t.host.api.callDetail({ callId: callIds.write! });
    expect(d.approvals).toEqual([
      expect.objectContaining({ callId: callIds.write, decision: 'approve_once', decider: 'ui' }),
    ]);
    expect(d.callClass).toBe('succeeded');
  });

  it('lists the calls a batch started, each remembered with the arguments its step really got', async () => {
    const d = await t.host.api.callDetail({ callId: callIds.batch! });
    const steps = [...new Map(d.nested.map((s) => [s.callId, s])).values()];
    expect(steps.map((s) => s.toolId)).toEqual(['json_transform', 'calculate']);
    const step = await t.host.api.callDetail({ callId: steps[1]!.callId });
    expect(step.memory?.args).toEqual({ expression: '42 + 1' });
    expect(step.memory?.requester).toMatchObject({ kind: 'batch', id: callIds.batch });
  });
});

describe('run again', () => {
  it('runs the call through the pipeline with the same arguments, traced as a replay of it', async () => {
    const replay = await t.host.api.replayCall({ callId: callIds.fetch! });
    expect(replay.ok).toBe(true);
    expect(replay.outcome?.ok).toBe(false);
    const again = await t.host.api.callDetail({ callId: replay.outcome!.callId });
    expect(again.spans.every((s) => s.requesterKind === 'replay' && s.sessionId === 'ui')).toBe(true);
    expect(again.memory).toMatchObject({ args: { url }, replayOf: callIds.fetch });
    expect((await t.host.api.callDetail({ callId: callIds.fetch! })).memory?.replays).toEqual([replay.outcome!.callId]);
  });
});

describe('the bug report', () => {
  it('tells the whole story in one document: spans, breaker, approvals, environment, versions', async () => {
    const report = await t.host.api.callReport({ callId: callIds.write! });
    expect(report.format).toBe('toolgate-call-report/1');
    expect(report.host).toMatchObject({ version: expect.any(String), node: process.versions.node });
    expect(report.tool).toMatchObject({
      id: 'write_file',
      registered: true,
      schemaDigest: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(report.call).toMatchObject({
      callId: callIds.write,
      toolId: 'write_file',
      attempts: 1,
      callClass: 'succeeded',
    });
    expect(report.approvals.map((a) => a.decision)).toEqual(['approve_once']);
    expect(report.environment.readings.map((r) => r.key)).toContain('browser.started');
    expect(report.spans).toHaveLength(1);
  });

  it('carries no argument text', async () => {
    for (const id of [callIds.fetch!, callIds.write!, callIds.batch!]) {
      const text = JSON.stringify(await t.host.api.callReport({ callId: id }));
      expect(findLeak(text, [url, 'kept secret 1234', 'q3-confidential-7f3a9c', 'tk_live_55aa77bb'])).toBeUndefined();
    }
  });
});

describe('after a restart', () => {
  it('keeps the story, forgets the arguments, and so cannot run the call again', async () => {
    const { dataDir } = t;
    await client.close();
    await t.host.close();
    const host = await startHost({ port: 0, dataDir, adbPort });
    try {
      const d = await host.api.callDetail({ callId: callIds.fetch! });
      expect(d.spans).toHaveLength(3);
      expect(d.memory).toBeUndefined();
      expect(d.hint?.source).toBe('default');
      const replay = await host.api.replayCall({ callId: callIds.fetch! });
      expect(replay).toMatchObject({ ok: false });
      expect(replay.message).toContain('no longer in memory');
      const report = await host.api.callReport({ callId: callIds.fetch! });
      expect(report.environment.readings).toEqual([]);
      expect(report.environment.note).toContain('Not known');
    } finally {
      await host.close();
    }
    t.host = await startHost({ port: 0, dataDir, adbPort });
  });
});
