/**
 * Rule (issue 14, "time waiting for a person is not tool time"), through a real MCP client against
 * a host with the virtual phone: an approval asked from inside a running tool (shell_execute's
 * command gate, get_set_settings' write) holds the tool's run timeout while it waits, so a
 * decision that comes after the run timeout would have fired still ends in success; the span
 * keeps the wait apart from the run, and the Latency figures and the breaker see only the run.
 * Scaled: a 1 s run timeout, and the person answers after 1.5 s.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

const RUN_TIMEOUT_MS = 1_000;
const PERSON_TAKES_MS = 1_500;

let t: TestHost;
let client: Client;
let serial: string;

beforeAll(async () => {
  t = await startTestHost({
    virtualDevice: true,
    approvalTimeoutMs: 30_000,
    approvalProgressIntervalMs: 300,
    runPolicies: { mutating: { timeoutMs: RUN_TIMEOUT_MS } },
  });
  client = await connectClient(t.host, 'slow-person-agent');
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('an approval asked while the tool runs', () => {
  it.each([
    ['shell_execute', { command: 'touch /sdcard/Download/approved.txt' }, /\[exit status 0\]$/],
    ['get_set_settings', { action: 'put', namespace: 'system', key: 'screen_brightness', value: '120' }, /./],
  ])('%s ends in success though the person answered after its run timeout', async (tool, args, said) => {
    const progress: string[] = [];
    const call = client.callTool({ name: tool, arguments: { ...args, serial } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
    });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [card] = await t.host.api.pendingApprovals({});
    await new Promise((resolve) => setTimeout(resolve, PERSON_TAKES_MS));
    expect(await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'approve_once' })).toMatchObject({
      ok: true,
    });
    const result = await call;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(said);
    expect(progress).toContainEqual(expect.stringMatching(/^waiting for a person's approval, 0:\d\d left$/));

    const [span] = await t.host.api.listSpans({ callId: card!.callId, limit: 10 });
    expect(span).toMatchObject({ toolId: tool, attempt: 1, outcome: 'success' });
    // The wait is the person's: at least what the person took, and not in the run's duration.
    expect(span!.personWaitMs).toBeGreaterThanOrEqual(PERSON_TAKES_MS);
    const { stats } = await t.host.api.usage({ toolId: tool });
    expect(stats).toMatchObject([{ toolId: tool, calls: 1, attempts: 1, retries: 0, outcomes: { succeeded: 1 } }]);
    expect(stats[0]!.latencyMs.max).toBe(span!.durationMs);
    const log = await t.host.api.auditLog({ limit: 1 });
    expect(log[0]).toMatchObject({ callId: card!.callId, decision: 'approve_once', decider: 'ui' });
    expect(log[0]!.waitedMs).toBeGreaterThanOrEqual(PERSON_TAKES_MS);
    expect((t.host.pipeline.breakers?.states() ?? []).filter((b) => b.consecutiveFailures > 0)).toEqual([]);
  });
});
