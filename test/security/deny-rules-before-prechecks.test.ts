/**
 * Rule: a call a person's deny rule covers is refused by the rule, before any precheck reads its
 * target. Were the precheck first, an agent could learn whether a file or a memory exists by
 * calling a tool the person ruled out (NOT_FOUND for the missing one, the rule's refusal for the
 * one that is there), and the answer would not be the person's. Through a real MCP client against
 * a running host: the existing and the missing target both get the rule's refusal, word for word,
 * nothing is deleted, nobody is asked, and the audit names the rule each time.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../shared/contract';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

let t: TestHost;
let person: PersonSession;
let agent: Client;
const workspace = () => join(t.dataDir, 'workspace');

beforeAll(async () => {
  t = await startTestHost({ approvalTimeoutMs: 20_000 });
  person = await openPersonSession(t.host.uiLink());
  agent = await connectClient(t.host, 'probing-agent');
  mkdirSync(join(workspace(), 'private'), { recursive: true });
  writeFileSync(join(workspace(), 'private', 'salary.txt'), 'x');
});
afterAll(async () => {
  await agent?.close();
  await t?.dispose();
});

async function denyRule(rule: string): Promise<ApprovalRule> {
  const r = (await person.rpc('addApprovalRule', { effect: 'deny', rule })).body as {
    ok: boolean;
    rule?: ApprovalRule;
  };
  expect(r.ok).toBe(true);
  return r.rule!;
}

async function audit() {
  return (await person.rpc('auditLog', { limit: 50 })).body as Array<Record<string, unknown>>;
}

const refusalText = (rule: ApprovalRule, toolId: string) =>
  `Error: PERMISSION_DENIED: The approval rule #${rule.id} deny ${rule.text} denies this call to '${toolId}'.\n` +
  'Hint: A person set this rule; do not retry this call or a variant of it. Change your approach, or ask the user.';

describe('deny rules answer before prechecks', () => {
  it('without a rule, the precheck tells a missing file apart (the leak a rule must close)', async () => {
    const r = await agent.callTool({ name: 'delete_file', arguments: { path: 'elsewhere/missing.txt' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Error: NOT_FOUND: /);
  });

  it('delete_file of an existing and of a missing file under a deny rule answer the rule, word for word', async () => {
    const rule = await denyRule('delete_file path=private/**');
    const there = await agent.callTool({ name: 'delete_file', arguments: { path: 'private/salary.txt' } });
    const missing = await agent.callTool({ name: 'delete_file', arguments: { path: 'private/bonus.txt' } });
    expect(textOf(there)).toBe(refusalText(rule, 'delete_file'));
    expect(textOf(missing)).toBe(textOf(there));
    expect([there.isError, missing.isError]).toEqual([true, true]);
    expect(existsSync(join(workspace(), 'private', 'salary.txt'))).toBe(true);
    expect(await t.host.api.pendingApprovals({})).toEqual([]);
    const [latest, before] = await audit();
    for (const entry of [latest, before])
      expect(entry).toMatchObject({
        toolId: 'delete_file',
        decision: 'deny',
        decider: 'rule',
        rule: `#${rule.id} deny ${rule.text}`,
      });
  });

  it('forget of a kept and of an unknown memory under a deny rule both answer the rule, word for word', async () => {
    const kept = await agent.callTool({ name: 'memorize', arguments: { key: 'user.pin', text: 'a note' } });
    expect(kept.isError).toBeFalsy();
    const rule = await denyRule('forget key=user.*');
    const known = await agent.callTool({ name: 'forget', arguments: { key: 'user.pin' } });
    const unknown = await agent.callTool({ name: 'forget', arguments: { key: 'user.nothing' } });
    expect(textOf(known)).toBe(refusalText(rule, 'forget'));
    expect(textOf(unknown)).toBe(textOf(known));
    const recalled = await agent.callTool({ name: 'recall', arguments: { key: 'user.pin' } });
    expect(textOf(recalled)).toContain('a note');
  });
});
