/**
 * Rule (issue 14, "scope is chosen and stated"), through real MCP clients against a host with the
 * virtual phone: a person approves once, this tool for this session (any arguments), or this tool
 * on this target for this session (the device serial, the file path's folder), and each covers
 * what it says and nothing more: not another tool, not another session, not another target. The
 * card offers the scopes in words naming the session and its client; the audit records which was
 * chosen. A scripted person answers each card through the UI's own RPC.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../shared/contract';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

let t: TestHost;
let person: PersonSession;
let agent: Client;
let other: Client;
let serial: string;
let cursorToken: string;
/** Every card the person saw, and the answers the person gives next (deny when none is left). */
const cards: PendingApproval[] = [];
const answers: Array<'approve_once' | 'approve_session' | 'approve_target'> = [];

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, approvalTimeoutMs: 20_000 });
  person = await openPersonSession(t.host.uiLink());
  t.host.approvals.onEvent((e) => {
    if (e.type !== 'pending') return;
    void person.rpc('pendingApprovals').then(({ body }) => {
      const card = (body as PendingApproval[]).find((p) => p.approvalId === e.item.approvalId);
      if (!card) return;
      cards.push(card);
      const decision = answers.shift();
      return person.rpc(
        'decideApproval',
        decision
          ? { approvalId: card.approvalId, decision }
          : { approvalId: card.approvalId, decision: 'deny', reason: 'asked' },
      );
    });
  });
  // Each client with its own token, so its sessions are labelled with its name (claude#n, cursor#n).
  // Two clients a person made with the toolsets of the tools below (Overview page).
  const toolsets = ['device', 'device-system', 'files'];
  agent = await connectClient(t.host, 'claude-code', t.host.clientTokens.create('claude', toolsets).token);
  cursorToken = t.host.clientTokens.create('cursor', toolsets).token;
  other = await connectClient(t.host, 'cursor-agent', cursorToken);
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
  mkdirSync(join(t.dataDir, 'workspace', 'notes', 'sub'), { recursive: true });
  mkdirSync(join(t.dataDir, 'workspace', 'other'), { recursive: true });
  for (const f of ['notes/a.txt', 'notes/b.txt', 'notes/sub/c.txt', 'other/d.txt'])
    writeFileSync(join(t.dataDir, 'workspace', f), 'x');
});
afterAll(async () => {
  await agent?.close();
  await other?.close();
  await t?.dispose();
});

/** 'ran', or 'asked' when the call waited for a person and was denied. */
async function outcome(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  if (!r.isError) return 'ran';
  return textOf(r).includes('The user denied') ? 'asked' : textOf(r);
}

const stop = (packageName: string, on = serial) => ({ packageName, serial: on });

describe('approval scopes over MCP', () => {
  it('"approve once" covers this call only', async () => {
    answers.push('approve_once');
    expect(await outcome(agent, 'app_force_stop', stop('com.android.settings'))).toBe('ran');
    expect(await outcome(agent, 'app_force_stop', stop('com.android.settings'))).toBe('asked');
  });

  it('"this tool on this target" covers the tool on that device only, in that session only', async () => {
    answers.push('approve_target');
    expect(await outcome(agent, 'app_force_stop', stop('com.android.settings'))).toBe('ran');
    const card = cards.at(-1)!;
    expect(card.choices.map((c) => c.covers)).toEqual([
      'this call only',
      'app_force_stop with any arguments, for the rest ' +
        `of ${card.sessionId.replace(/^(.*)#(\d+)$/, 'session $1#$2 (client $1)')}`,
      `app_force_stop on device ${serial}, for the rest of session ${card.sessionId} (client claude)`,
    ]);
    expect(card.sessionId).toMatch(/^claude#\d+$/);
    expect(await outcome(agent, 'app_force_stop', stop('com.example.shop'))).toBe('ran');
    expect(await outcome(agent, 'app_force_stop', stop('com.example.shop', 'emulator-5554'))).toBe('asked');
    expect(await outcome(agent, 'app_uninstall', { packageName: 'com.example.shop', serial })).toBe('asked');
    expect(await outcome(other, 'app_force_stop', stop('com.example.shop'))).toBe('asked');
  });

  it('"this tool for this session" covers any arguments of the tool in that session, and nothing else', async () => {
    answers.push('approve_session');
    expect(await outcome(other, 'app_force_stop', stop('com.android.settings'))).toBe('ran');
    expect(await outcome(other, 'app_force_stop', stop('com.example.shop'))).toBe('ran');
    expect(await outcome(other, 'app_force_stop', stop('com.example.shop', 'emulator-5554'))).not.toBe('asked');
    expect(await outcome(other, 'app_uninstall', { packageName: 'com.example.shop', serial })).toBe('asked');
    // Another session of the same client is another session.
    const fresh = await connectClient(t.host, 'cursor-agent', cursorToken);
    expect(await outcome(fresh, 'app_force_stop', stop('com.example.shop'))).toBe('asked');
    await fresh.close();
  });

  it('"this tool on this target" for a file covers its folder\'s files, not its subfolders nor another', async () => {
    answers.push('approve_target');
    expect(await outcome(agent, 'delete_file', { path: 'notes/a.txt' })).toBe('ran');
    expect(cards.at(-1)?.target).toEqual({ kind: 'folder', value: 'notes', label: 'folder notes/' });
    expect(await outcome(agent, 'delete_file', { path: 'notes/b.txt' })).toBe('ran');
    expect(await outcome(agent, 'delete_file', { path: 'notes/sub/c.txt' })).toBe('asked');
    expect(await outcome(agent, 'delete_file', { path: 'notes/../other/d.txt' })).toBe('asked');
    expect(await outcome(agent, 'delete_file', { path: 'other/d.txt' })).toBe('asked');
  });

  it('records in the audit which scope each approval covered, and which session and client', async () => {
    const log = (await person.rpc('auditLog', { limit: 100 })).body as Array<Record<string, string>>;
    const approvals = log.filter((e) => e.decision?.startsWith('approve')).reverse();
    expect(approvals.map((e) => [e.toolId, e.decision, e.scope])).toEqual([
      ['app_force_stop', 'approve_once', 'this call only'],
      [
        'app_force_stop',
        'approve_target',
        expect.stringMatching(
          new RegExp(
            `^app_force_stop on device ${serial.replace(/\./g, '\\.')}, ` +
              'for the rest of session claude#\\d+ \\(client claude\\)$',
          ),
        ),
      ],
      [
        'app_force_stop',
        'approve_session',
        expect.stringMatching(
          /^app_force_stop with any arguments, for the rest of session cursor#\d+ \(client cursor\)$/,
        ),
      ],
      [
        'delete_file',
        'approve_target',
        expect.stringMatching(
          /^delete_file on folder notes\/ \(its files, not the folders inside it\), for the rest of session claude#\d+/,
        ),
      ],
    ]);
  });
});
