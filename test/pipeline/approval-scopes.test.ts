/**
 * Rule guarded (docs/architecture.md#approval-gate): a person chooses what an approval covers and
 * it covers that and nothing more: "approve once" this call; "this tool for this session" any
 * arguments of the tool in that session; "this tool on this target for this session" the tool on
 * one device (its serial), one folder (the file path's folder, not the folders inside it) or one
 * host (of the URL). The card offers only the scopes the call has, in words naming the session
 * and its client, and the audit says which one was chosen.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../../tools/core';
import { type ApprovalAuditEntry, createPipeline } from '../../tools/core/pipeline';
import { DESTRUCTIVE, fixtureTool, registryOf } from './fixtures';

function setup() {
  const asked: ApprovalRequest[] = [];
  const audit: ApprovalAuditEntry[] = [];
  let answer: ApprovalDecision = { decision: 'approve_once' };
  const destructive = { annotations: DESTRUCTIVE, metadata: { category: 'apps' as const, risk: 'HIGH' as const } };
  const forceStop = fixtureTool('app_force_stop', () => 'stopped', {
    ...destructive,
    input: z.object({ packageName: z.string(), serial: z.string().optional() }),
  });
  const deleteFile = fixtureTool('delete_file', () => 'deleted', {
    ...destructive,
    input: z.object({ path: z.string() }),
  });
  const post = fixtureTool('http_delete', () => 'sent', { ...destructive, input: z.object({ url: z.string() }) });
  const pipeline = createPipeline(registryOf(forceStop, deleteFile, post), {
    approval: {
      decide: async (request) => {
        asked.push(request);
        return answer;
      },
      audit: { record: (e) => audit.push(e) },
    },
  });
  return {
    asked,
    audit,
    answer: (a: ApprovalDecision) => (answer = a),
    /** Runs a call; true when it ran, false when refused. */
    ran: async (toolId: string, args: unknown, sessionId = 'claude#1') =>
      (await pipeline.executor.execute({ toolId, args, sessionId })).ok,
    approval: pipeline.approval!,
  };
}

describe('approval scopes', () => {
  it('"approve once" covers this call only', async () => {
    const s = setup();
    expect(await s.ran('app_force_stop', { packageName: 'com.android.settings', serial: 'p1' })).toBe(true);
    s.answer({ decision: 'deny' });
    expect(await s.ran('app_force_stop', { packageName: 'com.android.settings', serial: 'p1' })).toBe(false);
    expect(s.asked).toHaveLength(2);
    expect(s.audit[0]).toMatchObject({ decision: 'approve_once', scope: 'this call only' });
  });

  it('"this tool for this session" covers all its arguments in that session, no other tool or session', async () => {
    const s = setup();
    s.answer({ decision: 'approve_session' });
    expect(await s.ran('app_force_stop', { packageName: 'com.android.settings', serial: 'p1' })).toBe(true);
    s.answer({ decision: 'deny' });
    expect(await s.ran('app_force_stop', { packageName: 'com.example.shop', serial: 'p2' })).toBe(true);
    expect(await s.ran('app_force_stop', { packageName: 'com.example.shop' })).toBe(true);
    expect(s.asked).toHaveLength(1);
    expect(await s.ran('delete_file', { path: 'notes/a.txt' })).toBe(false);
    expect(await s.ran('app_force_stop', { packageName: 'com.example.shop', serial: 'p1' }, 'claude#2')).toBe(false);
    expect(s.audit[0]).toMatchObject({
      decision: 'approve_session',
      scope: 'app_force_stop with any arguments, for the rest of session claude#1 (client claude)',
    });
  });

  it('"this tool on this target for this session" covers that device only', async () => {
    const s = setup();
    s.answer({ decision: 'approve_target' });
    expect(await s.ran('app_force_stop', { packageName: 'com.android.settings', serial: 'p1' })).toBe(true);
    s.answer({ decision: 'deny' });
    expect(await s.ran('app_force_stop', { packageName: 'com.example.shop', serial: 'p1' })).toBe(true);
    expect(await s.ran('app_force_stop', { packageName: 'com.example.shop', serial: 'p2' })).toBe(false);
    expect(await s.ran('app_force_stop', { packageName: 'com.example.shop' })).toBe(false);
    expect(await s.ran('app_force_stop', { packageName: 'com.example.shop', serial: 'p1' }, 'claude#2')).toBe(false);
    expect(s.audit[0]).toMatchObject({
      decision: 'approve_target',
      scope: 'app_force_stop on device p1, for the rest of session claude#1 (client claude)',
    });
  });

  it("covers the files of the file path's folder, not the folders inside it nor a path climbing out", async () => {
    const s = setup();
    s.answer({ decision: 'approve_target' });
    expect(await s.ran('delete_file', { path: 'notes/a.txt' })).toBe(true);
    s.answer({ decision: 'deny' });
    expect(await s.ran('delete_file', { path: 'notes/b.txt' })).toBe(true);
    expect(await s.ran('delete_file', { path: './notes/c.txt' })).toBe(true);
    expect(await s.ran('delete_file', { path: 'notes/sub/c.txt' })).toBe(false);
    expect(await s.ran('delete_file', { path: 'notes/../secrets.txt' })).toBe(false);
    expect(await s.ran('delete_file', { path: 'other/a.txt' })).toBe(false);
    expect(s.audit[0]).toMatchObject({
      scope: expect.stringContaining('delete_file on folder notes/ (its files, not the folders inside it)'),
    });
  });

  it('covers the host of the URL, not another host', async () => {
    const s = setup();
    s.answer({ decision: 'approve_target' });
    expect(await s.ran('http_delete', { url: 'https://api.example.com/items/1' })).toBe(true);
    s.answer({ decision: 'deny' });
    expect(await s.ran('http_delete', { url: 'https://api.example.com/items/2' })).toBe(true);
    expect(await s.ran('http_delete', { url: 'https://example.com/items/2' })).toBe(false);
    expect(await s.ran('http_delete', { url: 'https://api.example.com:8443/items/2' })).toBe(false);
  });

  it('offers only the scopes the call has, each saying what it covers and for which session and client', async () => {
    const s = setup();
    await s.ran('app_force_stop', { packageName: 'com.android.settings', serial: 'p1' });
    await s.ran('app_force_stop', { packageName: 'com.android.settings' });
    expect(s.asked[0]?.choices).toEqual([
      { decision: 'approve_once', label: 'Approve once', covers: 'this call only' },
      {
        decision: 'approve_session',
        label: 'Approve app_force_stop for this session',
        covers: 'app_force_stop with any arguments, for the rest of session claude#1 (client claude)',
      },
      {
        decision: 'approve_target',
        label: 'Approve app_force_stop on device p1 for this session',
        covers: 'app_force_stop on device p1, for the rest of session claude#1 (client claude)',
      },
    ]);
    expect(s.asked[1]?.choices?.map((c) => c.decision)).toEqual(['approve_once', 'approve_session']);
    expect(s.asked[1]?.target).toBeUndefined();
  });

  it('counts an approval on a target the call does not have as once', async () => {
    const s = setup();
    s.answer({ decision: 'approve_target' });
    expect(await s.ran('app_force_stop', { packageName: 'com.android.settings' })).toBe(true);
    s.answer({ decision: 'deny' });
    expect(await s.ran('app_force_stop', { packageName: 'com.android.settings' })).toBe(false);
  });

  it("forgets a session's approvals when the session ends", async () => {
    const s = setup();
    s.answer({ decision: 'approve_target' });
    await s.ran('app_force_stop', { packageName: 'a.b', serial: 'p1' });
    s.approval.permissions.endSession('claude#1');
    s.answer({ decision: 'deny' });
    expect(await s.ran('app_force_stop', { packageName: 'a.b', serial: 'p1' })).toBe(false);
  });
});
