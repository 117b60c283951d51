/**
 * Rule: a destructive call waits in the approval queue with its tool, arguments, risk,
 * annotations and requester until a person approves once, approves for the session, or denies
 * with a reason; no decision in time is a denial saying so. Every decision lands in the audit log
 * with the args digest, never the arguments' text.
 */
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/core/tool';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
const removed: string[] = [];

beforeAll(async () => {
  t = await startTestHost({ approvalTimeoutMs: 1500 });
  t.host.registry.register(
    defineTool({
      id: 'app_uninstall',
      description: 'Uninstall a package (test double of the device tool).',
      input: z.object({ packageName: z.string().describe('Package') }),
      run: ({ packageName }) => (removed.push(packageName), `removed ${packageName}`),
    }),
  );
  client = await connectClient(t.host, 'approval-agent');
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

async function nextPending() {
  await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 5000 }).toHaveLength(1);
  const [item] = await t.host.api.pendingApprovals({});
  return item!;
}

describe('approvals over MCP', () => {
  it('holds a destructive call until a person approves it once', async () => {
    const call = client.callTool({ name: 'app_uninstall', arguments: { packageName: 'com.example.notes' } });
    const item = await nextPending();
    expect(item).toMatchObject({
      toolId: 'app_uninstall',
      risk: 'HIGH',
      args: { packageName: 'com.example.notes' },
      requester: { kind: 'mcp', label: 'approval-agent 1.0.0' },
    });
    expect(item.annotations.destructiveHint).toBe(true);
    expect(removed).toEqual([]);
    expect(await t.host.api.decideApproval({ approvalId: item.approvalId, decision: 'approve_once' })).toMatchObject({
      ok: true,
    });
    expect(textOf(await call)).toBe('removed com.example.notes');
    expect(removed).toEqual(['com.example.notes']);
  });

  it('refuses the call with the reason a person gave', async () => {
    const call = client.callTool({ name: 'app_uninstall', arguments: { packageName: 'com.example.shop' } });
    const item = await nextPending();
    await t.host.api.decideApproval({
      approvalId: item.approvalId,
      decision: 'deny',
      reason: 'shop holds the test basket',
    });
    const r = await call;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('shop holds the test basket');
    expect(r.structuredContent).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(removed).not.toContain('com.example.shop');
  });

  it('denies when nobody decides in time, and says so', async () => {
    const r = await client.callTool({ name: 'app_uninstall', arguments: { packageName: 'com.timeout' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/no decision|not decided|in time/i);
    expect(await t.host.api.pendingApprovals({})).toEqual([]);
    expect(removed).not.toContain('com.timeout');
  });

  it('does not ask again in the session after approve-for-session', async () => {
    const first = client.callTool({ name: 'app_uninstall', arguments: { packageName: 'a.one' } });
    const item = await nextPending();
    await t.host.api.decideApproval({ approvalId: item.approvalId, decision: 'approve_session' });
    await first;
    const second = await client.callTool({ name: 'app_uninstall', arguments: { packageName: 'a.two' } });
    expect(textOf(second)).toBe('removed a.two');
    const other = await connectClient(t.host, 'second-agent');
    const elsewhere = other.callTool({ name: 'app_uninstall', arguments: { packageName: 'a.three' } });
    const again = await nextPending();
    await t.host.api.decideApproval({ approvalId: again.approvalId, decision: 'deny' });
    expect((await elsewhere).isError).toBe(true);
    await other.close();
  });

  it('writes every decision to the audit log with a digest, not the arguments', async () => {
    const log = await t.host.api.auditLog({ limit: 50 });
    expect(log.map((e) => e.decision)).toEqual(
      expect.arrayContaining(['approve_once', 'deny', 'timeout', 'approve_session']),
    );
    const denied = log.find((e) => e.reason === 'shop holds the test basket');
    expect(denied).toMatchObject({ toolId: 'app_uninstall', decision: 'deny', decider: 'ui' });
    expect(JSON.stringify(log)).not.toContain('com.example.shop');
  });

  it('answers a decision on an approval that is gone', async () => {
    expect(await t.host.api.decideApproval({ approvalId: 'gone', decision: 'approve_once' })).toMatchObject({
      ok: false,
    });
  });
});
