/**
 * Rule: MCP sessions are stateful but never leak: a session whose client vanished without a
 * DELETE is closed after the idle limit, its id is then refused (the client must initialize
 * again), and its session-wide approvals are forgotten.
 */
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/core/tool';
import { type TestHost, connectClient, startTestHost } from './harness';

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost({ mcpIdleSessionMs: 1000 });
  t.host.registry.register(
    defineTool({
      id: 'app_uninstall',
      description: 'Uninstall (test double).',
      input: z.object({}),
      run: () => 'removed',
    }),
  );
});
afterAll(async () => t?.dispose());

describe('idle MCP sessions', () => {
  it('are closed after the idle limit, and their session approvals forgotten', async () => {
    const client = await connectClient(t.host, 'vanishing-agent');
    const call = client.callTool({ name: 'app_uninstall', arguments: {} });
    await expect.poll(() => t.host.api.pendingApprovals({})).toHaveLength(1);
    const [item] = await t.host.api.pendingApprovals({});
    await t.host.api.decideApproval({ approvalId: item!.approvalId, decision: 'approve_session' });
    await call;
    const session = item!.sessionId;
    expect(t.host.pipeline.approval?.permissions.state(session, 'app_uninstall')).toBe('allowed_session');
    await expect
      .poll(() => t.host.pipeline.approval?.permissions.state(session, 'app_uninstall'), { timeout: 10_000 })
      .toBe('ask');
    await expect(client.listTools()).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it('stay open while the client keeps using them', async () => {
    const client = await connectClient(t.host, 'busy-agent');
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 150));
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    }
    await client.close();
  });
});

describe('a session with a call still running', () => {
  it('is not closed while the call waits, however long', async () => {
    const client = await connectClient(t.host, 'patient-agent');
    const call = client.callTool({ name: 'app_uninstall', arguments: {} }, undefined, { timeout: 30_000 });
    await expect.poll(() => t.host.api.pendingApprovals({})).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 3000)); // three idle limits with no request on the session
    const [item] = await t.host.api.pendingApprovals({});
    await t.host.api.decideApproval({ approvalId: item!.approvalId, decision: 'approve_once' });
    expect((await call).isError).toBeFalsy();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});
