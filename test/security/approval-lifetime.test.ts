/**
 * Rule (issue 14, "a waiting call and its approval live and die together"), through real MCP
 * clients over real HTTP against a host with the virtual phone: an approval never outlives its
 * caller. A client whose request times out (the SDK sends notifications/cancelled) or that
 * disconnects while its call waits has its approval withdrawn at once: nothing is left pending,
 * the withdrawal is audited as "withdrawn: caller gone", a person's late click is refused, and
 * the tool never runs (the phone still has the app). While a call waits the host sends progress,
 * so a client that resets its timeout on progress outlives its timeout and gets the result; a
 * call no one answers says how long it waited. The same mechanism as production, scaled: a 1 s
 * client timeout, progress every 0.3 s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent, PendingApproval } from '../../shared/contract';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

let t: TestHost;
let person: PersonSession;
let observer: Client;
let serial: string;
const events: HostEvent[] = [];

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, approvalTimeoutMs: 30_000, approvalProgressIntervalMs: 300 });
  t.host.events.on((e) => events.push(e));
  person = await openPersonSession(t.host.uiLink());
  observer = await connectClient(t.host, 'observer');
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
});
afterAll(async () => {
  await observer?.close();
  await t?.dispose();
});

async function pending(): Promise<PendingApproval[]> {
  return (await person.rpc('pendingApprovals')).body as PendingApproval[];
}

async function oneWaiting(): Promise<PendingApproval> {
  await expect.poll(pending, { timeout: 15_000 }).toHaveLength(1);
  return (await pending())[0]!;
}

async function installed(packageName: string): Promise<boolean> {
  const r = await observer.callTool({ name: 'app_info', arguments: { packageName, serial } });
  return !r.isError;
}

async function lastAudit() {
  const log = (await person.rpc('auditLog', { limit: 5 })).body as Array<Record<string, unknown>>;
  return log[0];
}

describe('an approval never outlives its caller', () => {
  it('is withdrawn when the client times out: nothing pending, audited, a late click refused, app kept', async () => {
    const agent = await connectClient(t.host, 'impatient-agent');
    const call = agent.callTool(
      { name: 'app_uninstall', arguments: { packageName: 'com.example.shop', serial } },
      undefined,
      { timeout: 1_000 },
    );
    const item = await oneWaiting();
    await expect(call).rejects.toThrow(/Request timed out/);
    await expect.poll(pending, { timeout: 5_000 }).toEqual([]);
    expect(events).toContainEqual({ type: 'approval-decided', approvalId: item.approvalId, decision: 'withdrawn' });
    expect(await lastAudit()).toMatchObject({
      callId: item.callId,
      toolId: 'app_uninstall',
      decision: 'withdrawn',
      reason: 'caller gone',
      decider: 'system',
    });
    const late = await person.rpc('decideApproval', { approvalId: item.approvalId, decision: 'approve_once' });
    expect(late.body).toEqual({
      ok: false,
      message: 'This approval is no longer pending (decided, expired, or withdrawn because the caller is gone).',
    });
    expect(await installed('com.example.shop')).toBe(true);
    await agent.close();
  });

  it('is withdrawn when the client disconnects while its call waits, and the tool never runs', async () => {
    const agent = await connectClient(t.host, 'vanishing-agent');
    const call = agent.callTool({ name: 'app_uninstall', arguments: { packageName: 'com.example.shop', serial } });
    call.catch(() => undefined);
    const item = await oneWaiting();
    await agent.close();
    await expect.poll(pending, { timeout: 5_000 }).toEqual([]);
    expect(await lastAudit()).toMatchObject({ callId: item.callId, decision: 'withdrawn', reason: 'caller gone' });
    expect(await installed('com.example.shop')).toBe(true);
    const spans = await t.host.api.listSpans({ callId: item.callId, limit: 10 });
    expect(spans).toMatchObject([{ attempt: 0, outcome: 'cancelled' }]);
  });

  it('keeps a client that resets its timeout on progress: it outlives its timeout and gets the result', async () => {
    const agent = await connectClient(t.host, 'patient-agent');
    const progress: Array<{ progress: number; message?: string }> = [];
    const call = agent.callTool(
      { name: 'app_uninstall', arguments: { packageName: 'com.example.notes', serial } },
      undefined,
      { timeout: 1_000, resetTimeoutOnProgress: true, onprogress: (p) => progress.push(p) },
    );
    const item = await oneWaiting();
    // More progress than fits in one timeout (1 s at 0.3 s apart): the client's timer was reset.
    await expect.poll(() => progress.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(6);
    expect(progress[0]?.message).toMatch(/^waiting for a person's approval, 0:\d\d left$/);
    const answer = await person.rpc('decideApproval', { approvalId: item.approvalId, decision: 'approve_once' });
    expect(answer.body).toMatchObject({ ok: true });
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Uninstalled com.example.notes.');
    expect(await installed('com.example.notes')).toBe(false);
    await agent.close();
  });
});

describe('a call no one answers', () => {
  it('ends saying how long it waited and that no one answered, and did not run', async () => {
    const quick = await startTestHost({ approvalTimeoutMs: 1_000 });
    try {
      mkdirSync(join(quick.dataDir, 'workspace'), { recursive: true });
      writeFileSync(join(quick.dataDir, 'workspace', 'unanswered.txt'), 'kept');
      const agent = await connectClient(quick.host, 'unanswered-agent');
      const r = await agent.callTool({ name: 'delete_file', arguments: { path: 'unanswered.txt' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(
        new RegExp(
          String.raw`^Error: PERMISSION_DENIED: No one answered: the call to 'delete_file' waited 0:0\d for a ` +
            String.raw`person's approval and did not run\.\nHint: Nobody approved this call in time`,
        ),
      );
      expect(quick.host.approvals.pending()).toEqual([]);
      await agent.close();
    } finally {
      await quick.dispose();
    }
  });
});
