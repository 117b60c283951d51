/**
 * Rule: a terminal's refusal says who decided, as the shell and settings gates do. Through a real
 * MCP client against a real host with a host terminal: only a person's "deny" is worded "the user
 * denied" (slug `terminal-denied`, the one the Overview counts as a person's); an approval nobody
 * answered in time is "not approved" (`terminal-unanswered`); a command an approval rule denies is
 * refused by the rule, named, before anyone is asked (the approval gate checks deny rules on the
 * call's own arguments first, so a terminal's ask never meets one). Nothing runs in any case.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TerminalLab, startTerminalLab } from '../terminal/support/terminal-lab';

let lab: TerminalLab;
let id: string;

beforeAll(async () => {
  // A short deadline, so "nobody answered" comes within the test.
  lab = await startTerminalLab({ hostEnabled: true, host: { approvalTimeoutMs: 1500 } });
  id = (await lab.call('terminal.create', { backend: 'host' })).data.id as string;
}, 60_000);
afterAll(async () => {
  await lab?.dispose();
});

describe('a refused terminal approval', () => {
  it('is the user’s denial when a person said no, with their reason', async () => {
    const run = lab.call('terminal.run', { id, command: 'touch by-person' });
    await lab.answerNext('deny', 'not now');
    const r = await run;
    expect(r.data).toMatchObject({
      code: 'PERMISSION_DENIED',
      data: { gate: 'terminal', decision: 'deny', slug: 'terminal-denied', reason: 'not now' },
    });
    expect(r.text).toContain(`The user denied it: running a command in the host terminal ${id} (not now).`);
    expect(existsSync(join(lab.workspace, 'by-person'))).toBe(false);
  });

  it('is "not approved", never the user’s denial, when nobody answered in time', async () => {
    const r = await lab.call('terminal.run', { id, command: 'touch unanswered' });
    expect(r.data).toMatchObject({
      code: 'PERMISSION_DENIED',
      data: { gate: 'terminal', decision: 'deny', slug: 'terminal-unanswered' },
    });
    expect(r.text).toContain(`Not approved: running a command in the host terminal ${id} (no one answered`);
    expect(r.text).toContain('Nobody answered the approval in time');
    expect(r.text).not.toContain('The user denied');
    expect(existsSync(join(lab.workspace, 'unanswered'))).toBe(false);
  });

  it('is the approval rule’s refusal, before any card, when a rule the person set denies the command', async () => {
    const added = await lab.person.rpc('addApprovalRule', { effect: 'deny', rule: 'terminal.run command=touch*' });
    expect(added.body).toMatchObject({ ok: true });
    const r = await lab.call('terminal.run', { id, command: 'touch by-rule' });
    expect(r.data).toMatchObject({ code: 'PERMISSION_DENIED', data: { slug: 'approval-rule-denied' } });
    expect(r.text).toMatch(/The approval rule #\d+ deny terminal\.run command=touch\* denies this call/);
    expect(r.text).not.toContain('The user denied');
    expect(await lab.t.host.api.pendingApprovals({})).toEqual([]);
    expect(existsSync(join(lab.workspace, 'by-rule'))).toBe(false);
  });
});
