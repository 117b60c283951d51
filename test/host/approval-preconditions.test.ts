/**
 * Rule: nobody is asked to approve a call that cannot succeed. A tool may declare a read-only
 * precheck that runs before the approval gate: `write_file` into a folder that is not there
 * (createDirs false), `delete_file` of a file that is not there and `forget` of an unknown key end
 * NOT_FOUND at once, no card is shown and nothing is audited; the same calls on what is there
 * still ask a person. Through a real MCP client against a running host.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/contract';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
const events: HostEvent[] = [];
const workspace = () => join(t.dataDir, 'workspace');

beforeAll(async () => {
  t = await startTestHost({ approvalTimeoutMs: 30_000 });
  t.host.events.on((e) => events.push(e));
  client = await connectClient(t.host, 'hopeful-agent');
  mkdirSync(workspace(), { recursive: true });
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

const asked = () => events.filter((e) => e.type === 'approval-pending').length;

describe('a call that cannot succeed', () => {
  it.each([
    [
      'write_file',
      { path: 'no-such-folder/note.txt', content: 'hi' },
      /^Error: NOT_FOUND: The directory for "no-such-folder\/note.txt" does not exist\./,
    ],
    ['delete_file', { path: 'never-there.txt' }, /^Error: NOT_FOUND: .*never-there\.txt/],
    ['forget', { key: 'no-such-key' }, /^Error: NOT_FOUND: There is no memory with key "no-such-key"\./],
  ])('%s ends NOT_FOUND before anyone is asked', async (tool, args, said) => {
    const before = asked();
    const r = await client.callTool({ name: tool, arguments: args });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(said);
    expect(asked()).toBe(before);
    expect(await t.host.api.pendingApprovals({})).toEqual([]);
    expect((await t.host.api.auditLog({ limit: 50 })).filter((a) => a.toolId === tool)).toEqual([]);
    expect(existsSync(join(workspace(), 'no-such-folder'))).toBe(false);
  });
});

describe('the same calls on what is there', () => {
  it.each([
    ['write_file', { path: 'note.txt', content: 'hi' }],
    ['write_file', { path: 'new-folder/note.txt', content: 'hi', createDirs: true }],
    ['delete_file', { path: 'there.txt' }],
  ])('%s %j still asks a person', async (tool, args) => {
    writeFileSync(join(workspace(), 'there.txt'), 'x');
    const call = client.callTool({ name: tool, arguments: args });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [card] = await t.host.api.pendingApprovals({});
    expect(card).toMatchObject({ toolId: tool });
    await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'deny', reason: 'only checking' });
    expect(textOf(await call)).toMatch(/^Error: PERMISSION_DENIED: The user denied/);
  });
});
