/**
 * Rule (issue 14, "approval rules that persist"), through real MCP clients against a host with
 * the virtual phone: a person's rules, added on the Approvals page (the UI's RPC, with the
 * person's session), are applied before anyone is asked: allow runs a call that would wait,
 * deny refuses it and the app stays, ask makes a call wait that would not; deny beats allow; each
 * decision in the audit names the rule that made it. Rules are kept in SQLite across a restart,
 * and no tool call can change them: an MCP token on the rules methods is refused.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRule, PendingApproval } from '../../shared/contract';
import { startHost } from '../../tools/host/host';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

let t: TestHost;
let person: PersonSession;
let agent: Client;
let serial: string;
const workspace = () => join(t.dataDir, 'workspace');

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, approvalTimeoutMs: 20_000 });
  person = await openPersonSession(t.host.uiLink());
  agent = await connectClient(t.host, 'rule-tester');
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
  mkdirSync(join(workspace(), 'notes'), { recursive: true });
  for (const f of ['notes/old.txt', 'keep.txt']) writeFileSync(join(workspace(), f), 'x');
});
afterAll(async () => {
  await agent?.close();
  await t?.dispose();
});

async function addRule(effect: 'allow' | 'ask' | 'deny', rule: string) {
  const r = await person.rpc('addApprovalRule', { effect, rule });
  return r.body as { ok: boolean; message: string; rule?: ApprovalRule };
}

async function audit() {
  return (await person.rpc('auditLog', { limit: 50 })).body as Array<Record<string, unknown>>;
}

async function installed(packageName: string): Promise<boolean> {
  return !(await agent.callTool({ name: 'app_info', arguments: { packageName, serial } })).isError;
}

describe('approval rules', () => {
  it('are added in words, and a rule naming a field the tool lacks is refused saying which fields it has', async () => {
    expect(await addRule('deny', 'app_uninstall package=com.android.*')).toEqual({
      ok: false,
      message: 'Not added: app_uninstall has no field package; its fields are packageName, keepData, serial.',
    });
    expect(await addRule('deny', 'app_uninstall packageName="com.android')).toEqual({
      ok: false,
      message: 'Not a rule: a quote is not closed.',
    });
  });

  it('allow: a call that would wait for a person runs unasked, and the audit names the rule', async () => {
    const added = await addRule('allow', 'delete_file path=notes/**');
    expect(added).toMatchObject({
      ok: true,
      rule: { effect: 'allow', text: 'delete_file path=notes/**', matchesTools: 1 },
    });
    const r = await agent.callTool({ name: 'delete_file', arguments: { path: 'notes/old.txt' } });
    expect(r.isError).toBeFalsy();
    expect(existsSync(join(workspace(), 'notes/old.txt'))).toBe(false);
    expect((await audit())[0]).toMatchObject({
      toolId: 'delete_file',
      decision: 'allow',
      decider: 'rule',
      rule: `#${added.rule!.id} allow delete_file path=notes/**`,
    });
  });

  it('allow does not reach a path that climbs out of the folder it names', async () => {
    const call = agent.callTool({ name: 'delete_file', arguments: { path: 'notes/../keep.txt' } });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [card] = await t.host.api.pendingApprovals({});
    await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'deny', reason: 'not that one' });
    expect((await call).isError).toBe(true);
    expect(existsSync(join(workspace(), 'keep.txt'))).toBe(true);
  });

  it('deny: refused without asking anyone, the model told a person set it, the app kept', async () => {
    const added = await addRule('deny', 'app_uninstall packageName=com.android.*');
    const r = await agent.callTool({ name: 'app_uninstall', arguments: { packageName: 'com.android.music', serial } });
    expect(textOf(r)).toBe(
      `Error: PERMISSION_DENIED: The approval rule #${added.rule!.id} deny app_uninstall packageName=com.android.* ` +
        `denies this call to 'app_uninstall'.\n` +
        'Hint: A person set this rule; do not retry this call or ' +
        'a variant of it. Change your approach, or ask the user.',
    );
    expect(await t.host.api.pendingApprovals({})).toEqual([]);
    expect(await installed('com.android.music')).toBe(true);
    expect((await audit())[0]).toMatchObject({
      decision: 'deny',
      decider: 'rule',
      rule: `#${added.rule!.id} deny app_uninstall packageName=com.android.*`,
    });
  });

  it('ask: a call that would run unasked waits for a person, whose card names the rule', async () => {
    const added = await addRule('ask', 'app_list');
    const call = agent.callTool({ name: 'app_list', arguments: { serial } });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [card] = (await person.rpc('pendingApprovals')).body as PendingApproval[];
    expect(card).toMatchObject({ toolId: 'app_list', rule: `#${added.rule!.id} ask app_list` });
    expect(card!.choices.map((c) => c.decision)).toEqual(['approve_once']);
    await person.rpc('decideApproval', { approvalId: card!.approvalId, decision: 'approve_once' });
    expect((await call).isError).toBeFalsy();
    expect((await audit())[0]).toMatchObject({
      decision: 'approve_once',
      decider: 'ui',
      rule: `#${added.rule!.id} ask app_list`,
    });
    await person.rpc('removeApprovalRule', { id: added.rule!.id });
    expect((await agent.callTool({ name: 'app_list', arguments: { serial } })).isError).toBeFalsy();
  });

  it('deny beats allow when both match', async () => {
    const allow = await addRule('allow', 'app_uninstall');
    const music = await agent.callTool({
      name: 'app_uninstall',
      arguments: { packageName: 'com.android.music', serial },
    });
    expect(textOf(music)).toContain('deny app_uninstall packageName=com.android.* denies this call');
    expect(await installed('com.android.music')).toBe(true);
    const shop = await agent.callTool({
      name: 'app_uninstall',
      arguments: { packageName: 'com.example.shop', serial },
    });
    expect(textOf(shop)).toBe('Uninstalled com.example.shop.');
    expect((await audit())[0]).toMatchObject({ decision: 'allow', rule: `#${allow.rule!.id} allow app_uninstall` });
  });

  it('cannot be changed with an MCP token, and no tool offers to change them', async () => {
    const before = (await person.rpc('approvalRules')).body as ApprovalRule[];
    for (const method of ['approvalRules', 'addApprovalRule', 'removeApprovalRule']) {
      const r = await fetch(new URL(`/api/rpc/${method}`, t.host.address.ui), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.host.token}` },
        body: JSON.stringify({ effect: 'allow', rule: 'app_uninstall', id: before[0]?.id }),
      });
      expect(r.status, method).toBe(403);
      expect(await r.text()).toContain('An MCP token calls tools at /mcp and nothing else');
    }
    expect((await person.rpc('approvalRules')).body).toEqual(before);
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).filter((name) => /rule|approv/i.test(name))).toEqual([]);
  });
});

describe('approval rules across a restart', () => {
  it('are kept in the database and applied by the next host', async () => {
    const first = await startTestHost({});
    const dataDir = first.dataDir;
    mkdirSync(join(dataDir, 'workspace', 'keep'), { recursive: true });
    writeFileSync(join(dataDir, 'workspace', 'keep', 'x.txt'), 'x');
    const firstPerson = await openPersonSession(first.host.uiLink());
    await firstPerson.rpc('addApprovalRule', { effect: 'deny', rule: 'delete_file path=keep/**' });
    await first.host.close();
    const again = await startHost({ port: 0, dataDir, adbPort: 1 });
    try {
      expect(await again.api.approvalRules({})).toMatchObject([{ effect: 'deny', text: 'delete_file path=keep/**' }]);
      const r = await again.executor.execute({ toolId: 'delete_file', args: { path: 'keep/x.txt' } });
      expect(r).toMatchObject({ ok: false, error: { data: { slug: 'approval-rule-denied' } } });
    } finally {
      await again.close();
      await first.dispose().catch(() => undefined);
    }
  });
});
