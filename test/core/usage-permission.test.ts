/**
 * Rule: the usage tracker answers how often, how well and how fast each tool runs; the permission
 * manager asks a person before HIGH-risk or destructive tools (once, for the session, or denied)
 * and never asks twice for a self-gated tool.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  type ApprovalDecision,
  type ApprovalRequest,
  ToolPermissionManager,
  needsApproval,
} from '../../tools/core/permission';
import { failure } from '../../tools/core/result';
import { defineTool } from '../../tools/core/tool';
import { ToolUsageTracker } from '../../tools/core/usage-tracker';

describe('ToolUsageTracker', () => {
  it('counts successes and failures and keeps the last error', () => {
    const t = new ToolUsageTracker(() => 1000);
    t.record('a_tool', 5);
    t.record('a_tool', 15, failure('TIMEOUT', 'slow').error);
    t.record('a_tool', 10);
    expect(t.stats('a_tool')).toMatchObject({
      count: 3,
      successes: 2,
      failures: 1,
      lastError: { code: 'TIMEOUT', message: 'slow', at: 1000 },
    });
  });

  it('computes min, mean, p50, p95 and max latency', () => {
    const t = new ToolUsageTracker();
    for (let i = 1; i <= 100; i++) t.record('b_tool', i);
    expect(t.stats('b_tool')?.latencyMs).toEqual({ min: 1, mean: 50.5, p50: 50, p95: 95, max: 100 });
  });

  it('keeps percentiles over a bounded window of recent calls', () => {
    const t = new ToolUsageTracker();
    for (let i = 0; i < 5000; i++) t.record('c_tool', 1000);
    for (let i = 0; i < 1024; i++) t.record('c_tool', 1);
    const s = t.stats('c_tool');
    expect(s?.latencyMs.p95).toBe(1);
    expect(s?.latencyMs.max).toBe(1000);
    expect(s?.count).toBe(6024);
  });

  it('knows nothing of a tool never called', () => {
    expect(new ToolUsageTracker().stats('never')).toBeUndefined();
  });
});

const uninstall = defineTool({ id: 'app_uninstall', description: 'x', input: z.object({}), run: () => 'ok' });
const list = defineTool({ id: 'app_list', description: 'x', input: z.object({}), run: () => 'ok' });
const shell = defineTool({
  id: 'shell_execute',
  description: 'x',
  input: z.object({}),
  metadata: { category: 'shell', risk: 'HIGH' },
  selfGated: true,
  run: () => 'ok',
});

function scripted(answers: ApprovalDecision[]) {
  const asked: ApprovalRequest[] = [];
  const decide = async (req: ApprovalRequest) => {
    asked.push(req);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next;
  };
  return { asked, manager: new ToolPermissionManager(decide) };
}

const request = (sessionId = 's1') => ({
  callId: 'c1',
  sessionId,
  args: { packageName: 'com.x' },
  requester: { kind: 'mcp' as const },
});

describe('ToolPermissionManager', () => {
  it('needs approval only for HIGH risk or destructive tools', () => {
    expect(needsApproval(uninstall)).toBe(true);
    expect(needsApproval(list)).toBe(false);
  });

  it('does not ask for a read-only tool', async () => {
    const { asked, manager } = scripted([]);
    expect(await manager.check(list, request())).toBeUndefined();
    expect(asked).toHaveLength(0);
  });

  it('skips the tool-level prompt for a tool that declares itself self-gated', async () => {
    const { asked, manager } = scripted([]);
    expect(await manager.check(shell, request())).toBeUndefined();
    expect(asked).toHaveLength(0);
  });

  it('knows a self-gated tool by its declaration only, not by its id', async () => {
    const { asked, manager } = scripted([{ decision: 'deny' }]);
    const lookalike = defineTool({ id: 'shell_execute', description: 'x', input: z.object({}), run: () => 'ok' });
    expect(await manager.check(lookalike, request())).toMatchObject({
      ok: false,
      error: { code: 'PERMISSION_DENIED' },
    });
    expect(asked).toHaveLength(1);
  });

  it('asks again after an approve-once', async () => {
    const { asked, manager } = scripted([{ decision: 'approve_once' }, { decision: 'approve_once' }]);
    expect(await manager.check(uninstall, request())).toBeUndefined();
    expect(await manager.check(uninstall, request())).toBeUndefined();
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({
      toolId: 'app_uninstall',
      risk: 'HIGH',
      args: { packageName: 'com.x' },
      requester: { kind: 'mcp' },
    });
  });

  it('remembers approve-for-session within that session only', async () => {
    const { asked, manager } = scripted([{ decision: 'approve_session' }, { decision: 'deny' }]);
    await manager.check(uninstall, request('s1'));
    expect(manager.state('s1', 'app_uninstall')).toBe('allowed_session');
    expect(await manager.check(uninstall, request('s1'))).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(await manager.check(uninstall, request('s2'))).toMatchObject({ error: { code: 'PERMISSION_DENIED' } });
    manager.endSession('s1');
    expect(manager.state('s1', 'app_uninstall')).toBe('ask');
  });

  it('denies with the reason the person gave', async () => {
    const { manager } = scripted([{ decision: 'deny', reason: 'that app holds test data' }]);
    const denied = await manager.check(uninstall, request());
    expect(denied?.error).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: "The user denied 'app_uninstall': that app holds test data",
    });
  });

  it('treats a decider that fails as a denial', async () => {
    const { manager } = scripted([]);
    const denied = await manager.check(uninstall, request());
    expect(denied?.error.code).toBe('PERMISSION_DENIED');
    expect(denied?.error.message).toContain('could not be obtained');
  });
});
