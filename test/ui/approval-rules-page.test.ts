/**
 * Rule (issue 14, in real Chromium against a real host and real MCP clients): the Approvals page
 * edits the person's approval rules (a rule that does not parse, or names a field the tool lacks,
 * is refused saying why; an added rule applies to the next call and is removed as easily), and the
 * page stays usable with 50 waiting calls: grouped by tool and client with their counts, the
 * first group open and the others folded, the first cards of a group whole and the rest one line
 * each until focused, a group denied at once, the keys still moving between cards. Screenshots in
 * test-output/screenshots.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../host/harness';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

describe('the Approvals page', () => {
  let h: UiHarness;
  let second: Client;
  beforeAll(async () => {
    h = await startUiHarness({ approvalTimeoutMs: 120_000 });
    // A second client a person made with the toolsets of its calls below.
    const token = h.host.clientTokens.create('cursor', ['files', 'memory']).token;
    second = await connectClient(h.host, 'cursor-agent', token);
    mkdirSync(join(h.workspace, 'secret'), { recursive: true });
    writeFileSync(join(h.workspace, 'secret', 'key.txt'), 'x');
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
  });

  const rules = () => h.page.getByTestId('approval-rules');

  it('adds a rule in words, refuses one that cannot match saying why, applies it, and removes it', async () => {
    await h.open('approvals');
    await rules().getByLabel('Effect').selectOption('deny');
    await rules().getByLabel('Rule').fill('delete_file file=secret/**');
    await rules().getByRole('button', { name: 'Add rule' }).click();
    await h.page
      .getByTestId('rule-status')
      .filter({ hasText: 'Not added: delete_file has no field file; its fields are path, recursive.' })
      .waitFor();
    await rules().getByLabel('Rule').fill('delete_file path=secret/**');
    await rules().getByLabel('Note').fill('never the keys');
    await rules().getByRole('button', { name: 'Add rule' }).click();
    const row = h.page.getByTestId('rules-table').locator('tbody tr');
    await eventually(async () => expect(await row.count()).toBe(1));
    expect((await row.textContent())?.replace(/\s+/g, ' ')).toMatch(
      /^\d+denydelete_file path=secret\/\*\*1 toolnever the keys/,
    );
    await h.shot('approval-rules');

    const refused = await h.mcp.callTool({ name: 'delete_file', arguments: { path: 'secret/key.txt' } });
    expect(textOf(refused)).toMatch(
      /^Error: PERMISSION_DENIED: The approval rule #\d+ deny delete_file path=secret\/\*\* denies this call/,
    );
    expect(existsSync(join(h.workspace, 'secret', 'key.txt'))).toBe(true);
    expect(await h.host.api.pendingApprovals({})).toEqual([]);
    await eventually(async () =>
      expect(await h.page.getByTestId('audit-table').textContent()).toMatch(
        /rule #\d+ deny delete_file path=secret\/\*\*/,
      ),
    );

    await h.page
      .getByTestId('rules-table')
      .getByRole('button', { name: /^Remove #\d+$/ })
      .click();
    await h.page.getByText('No rules yet.').waitFor();
    const asked = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'secret/key.txt' } });
    await h.page.getByTestId('pending-approval').first().waitFor();
    await h.page.getByTestId('pending-approval').first().getByRole('button', { name: 'Deny' }).click();
    expect((await asked).isError).toBe(true);
  });

  it('stays usable with 50 waiting calls, grouped by tool and client', async () => {
    await h.open('approvals');
    // Each call could succeed (a precheck ends calls on missing targets before anyone is asked).
    mkdirSync(join(h.workspace, 'bulk'), { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(join(h.workspace, 'bulk', `${i}.txt`), 'x');
    for (let i = 0; i < 5; i++)
      await second.callTool({ name: 'memorize', arguments: { text: `note ${i}`, key: `bulk.${i}` } });
    // Three waves, so the groups' order (by their first waiting call) is known.
    const calls: Array<ReturnType<typeof second.callTool>> = [];
    const send = (c: ReturnType<typeof second.callTool>) => {
      c.catch(() => undefined);
      calls.push(c);
    };
    // The first four arrive one by one (the keys below walk them in that order); then the rest of
    // the group at once, and the other two groups in waves, so the groups' order is known too.
    for (let i = 0; i < 4; i++) {
      send(h.mcp.callTool({ name: 'delete_file', arguments: { path: `bulk/${i}.txt` } }));
      await expect.poll(async () => (await h.host.api.pendingApprovals({})).length).toBe(i + 1);
    }
    const waves = [
      () =>
        Array.from({ length: 26 }, (_, i) =>
          h.mcp.callTool({ name: 'delete_file', arguments: { path: `bulk/${i + 4}.txt` } }),
        ),
      () =>
        Array.from({ length: 15 }, (_, i) =>
          second.callTool({ name: 'delete_file', arguments: { path: `bulk/${i}.txt` } }),
        ),
      () => Array.from({ length: 5 }, (_, i) => second.callTool({ name: 'forget', arguments: { key: `bulk.${i}` } })),
    ];
    const summaries = [
      '30 calls wait, in 1 group by tool and client.',
      '45 calls wait, in 2 groups by tool and client.',
      '50 calls wait, in 3 groups by tool and client.',
    ];
    for (const [i, wave] of waves.entries()) {
      for (const c of wave()) send(c);
      await h.page
        .getByTestId('approval-summary')
        .filter({ hasText: summaries[i] as string })
        .waitFor({ timeout: 30_000 });
    }
    const groups = h.page.getByTestId('approval-group');
    expect(await groups.locator('summary').allTextContents()).toEqual([
      'delete_file from default · 30 waiting',
      'delete_file from cursor · 15 waiting',
      'forget from cursor · 5 waiting',
    ]);
    expect(await groups.evaluateAll((gs) => gs.map((g) => (g as HTMLDetailsElement).open))).toEqual([
      true,
      false,
      false,
    ]);
    await h.shot('approvals-50');

    // Keys still move through the open group's cards.
    const focused = () =>
      h.page.evaluate(() => document.activeElement?.closest('[data-testid="pending-approval"]')?.textContent ?? '');
    await eventually(async () => expect(await focused()).toContain('bulk/0.txt'));
    await h.page.keyboard.press('ArrowDown');
    expect(await focused()).toContain('bulk/1.txt');
    // After the first three, a group's calls are one line each; the one that takes focus opens.
    expect(await groups.nth(0).locator('.approval-compact').count()).toBe(27);
    await h.page.keyboard.press('ArrowDown');
    await h.page.keyboard.press('ArrowDown');
    await eventually(async () => expect(await focused()).toContain('Approve once'));
    expect(await focused()).toContain('bulk/3.txt');
    expect(await groups.nth(0).locator('.approval-compact').count()).toBe(26);

    // One group denied at once; its callers are told; the other groups wait on.
    await groups.nth(2).locator('summary').click();
    await groups.nth(2).getByRole('button', { name: 'Deny all 5 of forget from cursor' }).click();
    await h.page.getByTestId('approval-status').filter({ hasText: 'Denied 5 calls of forget from cursor.' }).waitFor();
    const forgotten = await Promise.all(calls.slice(45));
    for (const r of forgotten) expect(textOf(r)).toContain('denied with the rest of its group');
    await h.page.getByTestId('approval-summary').filter({ hasText: '45 calls wait, in 2 groups' }).waitFor();
    for (const name of ['Deny all 30 of delete_file from default', 'Deny all 15 of delete_file from cursor']) {
      const group = groups.filter({ has: h.page.getByRole('button', { name }) });
      if (!(await group.evaluate((g) => (g as HTMLDetailsElement).open))) await group.locator('summary').click();
      await group.getByRole('button', { name }).click();
    }
    await h.page.getByText('Nothing waits for approval.').waitFor({ timeout: 30_000 });
    expect((await Promise.all(calls)).every((r) => r.isError)).toBe(true);
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
