/**
 * Rule: a call's class (denied by a person, unanswered, refused by policy) rests on who decided
 * it, a structured field of its span (`decidedBy`), never on its error's slug. A slug is dropped
 * when the arguments share its words, so a file (or a command) named after the slug would
 * otherwise turn a person's denial into a policy's refusal, at the gate or at a running tool's own
 * ask. Through a real MCP client against a running host, read as the person's UI reads it (the
 * Overview's usage, the Traces detail), and again after a restart, from the spans kept in SQLite.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallDetail, PendingApproval, UsageReport } from '../../shared/contract';
import { startHost } from '../../tools/host/host';
import { type PersonSession, openPersonSession } from '../support/person-session';
import { type TestHost, connectClient, startTestHost } from './harness';

let t: TestHost;
let person: PersonSession;
let agent: Client;
const callIds: Record<string, string> = {};

function callIdOf(result: unknown): string {
  const id = (result as { _meta?: Record<string, string> })._meta?.['toolgate/callId'];
  if (!id) throw new Error(`no call id in ${JSON.stringify(result)}`);
  return id;
}

async function pendingCard(): Promise<PendingApproval> {
  for (let i = 0; i < 200; i++) {
    const [card] = (await person.rpc('pendingApprovals', {})).body as PendingApproval[];
    if (card) return card;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no approval card came');
}

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, approvalTimeoutMs: 4_000 });
  person = await openPersonSession(t.host.uiLink());
  agent = await connectClient(t.host, 'slug-namer');
  for (const name of ['approval-denied.txt', 'approval-timeout.txt', 'approval-rule-denied.txt'])
    writeFileSync(join(t.dataDir, 'workspace', name), 'x');

  const denied = agent.callTool({ name: 'delete_file', arguments: { path: 'approval-denied.txt' } });
  const card = await pendingCard();
  await person.rpc('decideApproval', { approvalId: card.approvalId, decision: 'deny' });
  callIds.denied = callIdOf(await denied);

  callIds.unanswered = callIdOf(
    await agent.callTool({ name: 'delete_file', arguments: { path: 'approval-timeout.txt' } }),
  );

  // A running tool's own ask (shell_execute's command gate), denied by the person.
  const shell = agent.callTool({ name: 'shell_execute', arguments: { command: 'rm /sdcard/shell-denied' } });
  const asked = await pendingCard();
  await person.rpc('decideApproval', { approvalId: asked.approvalId, decision: 'deny' });
  callIds.shell = callIdOf(await shell);

  await person.rpc('addApprovalRule', { effect: 'deny', rule: 'delete_file path=approval-rule-*' });
  callIds.ruled = callIdOf(
    await agent.callTool({ name: 'delete_file', arguments: { path: 'approval-rule-denied.txt' } }),
  );
}, 60_000);
afterAll(async () => {
  await agent?.close();
  await t?.dispose();
});

async function detail(callId: string): Promise<CallDetail> {
  return (await person.rpc('callDetail', { callId })).body as CallDetail;
}

describe("a call's class comes from who decided it, not from its slug", () => {
  it("keeps a person's denial of a file named like the slug a person's denial", async () => {
    const d = await detail(callIds.denied!);
    const last = d.spans.at(-1)!;
    // The slug spells the file's name, so it was dropped: the class cannot have come from it.
    expect(last).toMatchObject({ errorCode: 'PERMISSION_DENIED', errorSlug: 'permission-denied' });
    expect(last.decidedBy).toBe('person');
    expect(d.callClass).toBe('denied');
  });

  it("keeps a person's denial of a command a running tool asked about a person's denial", async () => {
    const d = await detail(callIds.shell!);
    expect(d.spans.at(-1)).toMatchObject({ attempt: 1, errorSlug: 'permission-denied', decidedBy: 'person' });
    expect(d.callClass).toBe('denied');
  });

  it('keeps a call nobody answered unanswered, and a deny rule a refusal by policy', async () => {
    const unanswered = await detail(callIds.unanswered!);
    expect(unanswered.spans.at(-1)).toMatchObject({ errorSlug: 'permission-denied', decidedBy: 'timeout' });
    expect(unanswered.callClass).toBe('unanswered');
    const ruled = await detail(callIds.ruled!);
    expect(ruled.spans.at(-1)).toMatchObject({ errorSlug: 'permission-denied', decidedBy: 'rule' });
    expect(ruled.callClass).toBe('policyRefused');
  });

  it('counts them so on the Overview', async () => {
    const report = (await person.rpc('usage', { toolId: 'delete_file' })).body as UsageReport;
    expect(report.stats[0]!.outcomes).toMatchObject({ denied: 1, unanswered: 1, policyRefused: 1 });
  });

  it('keeps who decided in the database: the next host classes the calls the same', async () => {
    await t.host.close();
    const again = await startHost({ port: 0, dataDir: t.dataDir, adbPort: 1 });
    try {
      const [stats] = (await again.api.usage({ toolId: 'delete_file' })).stats;
      expect(stats!.outcomes).toMatchObject({ denied: 1, unanswered: 1, policyRefused: 1 });
      expect((await again.api.callDetail({ callId: callIds.denied! })).callClass).toBe('denied');
    } finally {
      await again.close();
    }
  });
});
