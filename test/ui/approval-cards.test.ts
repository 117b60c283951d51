/**
 * Rule (issue 14, in real Chromium against a real host and MCP client): a card shows exactly what
 * will run (the parsed arguments with defaults filled in, the undeclared fields marked ignored),
 * where the call comes from, and the approvals it offers with what each covers; the chosen scope
 * covers what it says and the history records it; the keys on a focused card approve once, deny
 * with a reason and move between cards; a call whose caller is gone leaves a card saying it was
 * withdrawn, which can no longer be approved; the shell's "open this approval" (a click on a
 * desktop notification) and a link open the card itself. Screenshots in test-output/screenshots.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

describe('approval cards', () => {
  let h: UiHarness;
  const file = (path: string) => join(h.workspace, path);
  beforeAll(async () => {
    h = await startUiHarness({ approvalTimeoutMs: 120_000 });
    mkdirSync(join(h.workspace, 'notes', 'drafts'), { recursive: true });
    for (const f of ['notes/a.txt', 'notes/b.txt', 'notes/drafts/c.txt', 'keep.txt', 'one.txt', 'two.txt'])
      writeFileSync(join(h.workspace, f), 'x');
  });
  afterAll(async () => h?.close());

  const card = () => h.page.getByTestId('pending-approval').first();
  const focusedCardId = () =>
    h.page.evaluate(() =>
      document.activeElement?.closest('[data-testid="pending-approval"]')?.getAttribute('data-approval-id'),
    );

  it('shows what will run: parsed arguments with defaults, the ignored field marked, origin and scopes', async () => {
    await h.open('approvals');
    const call = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'notes/a.txt', force: true } });
    await card().waitFor();
    const json = (await card().getByRole('region').or(card().locator('pre')).first().textContent()) ?? '';
    expect(JSON.parse(json)).toEqual({ path: 'notes/a.txt', recursive: false });
    await expect.poll(() => card().getByTestId('approval-ignored').textContent()).toContain('force: true');
    expect(await card().getByTestId('approval-ignored').textContent()).toContain('ignored');
    expect(await card().getByTestId('approval-origin').textContent()).toMatch(
      /^From MCP client ui-e2e 1\.0\.0 in session default#\d+ at /,
    );
    const buttons = await card().locator('.approval-choices li').allTextContents();
    expect(buttons.map((b) => b.replace(/\s+/g, ' ').trim())).toEqual([
      'Approve once covers this call only',
      expect.stringMatching(
        new RegExp(
          '^Approve delete_file for this session covers delete_file with any arguments, ' +
            String.raw`for the rest of session default#\d+ \(client default\)$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          '^Approve delete_file on folder notes/ for this session covers delete_file on folder notes/ ' +
            String.raw`\(its files, not the folders inside it\), ` +
            String.raw`for the rest of session default#\d+ \(client default\)$`,
        ),
      ),
      'Deny',
    ]);
    await h.shot('approval-card');

    // The scope chosen covers the folder's files, not the folder inside it.
    await card().getByRole('button', { name: 'Approve delete_file on folder notes/ for this session' }).click();
    expect(textOf(await call)).toContain('Ignored: force is not a field of delete_file and had no effect.');
    expect((await h.mcp.callTool({ name: 'delete_file', arguments: { path: 'notes/b.txt' } })).isError).toBeFalsy();
    expect(existsSync(file('notes/b.txt'))).toBe(false);
    const inner = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'notes/drafts/c.txt' } });
    await card().waitFor();
    expect(await card().textContent()).toContain('notes/drafts/c.txt');
    await card().getByRole('button', { name: 'Deny' }).click();
    expect((await inner).isError).toBe(true);
    expect(existsSync(file('notes/drafts/c.txt'))).toBe(true);

    const history = h.page.getByTestId('audit-table');
    await eventually(async () =>
      expect(await history.textContent()).toContain(
        'delete_file on folder notes/ (its files, not the folders inside it), for the rest of session default#',
      ),
    );
    await h.shot('approval-scopes');
  });

  it('takes keys on the focused card: A approves once, D, a reason and Enter deny, arrows move', async () => {
    await h.open('approvals');
    const first = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'one.txt' } });
    await card().waitFor();
    const second = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'two.txt' } });
    await eventually(async () => expect(await h.page.getByTestId('pending-approval').count()).toBe(2));
    const [idOne, idTwo] = await h.page
      .getByTestId('pending-approval')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-approval-id')));
    await eventually(async () => expect(await focusedCardId()).toBe(idOne));
    await h.page.keyboard.press('ArrowDown');
    expect(await focusedCardId()).toBe(idTwo);
    await h.page.keyboard.press('ArrowUp');
    expect(await focusedCardId()).toBe(idOne);
    await h.shot('approval-keys');

    await h.page.keyboard.press('d');
    expect(await h.page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    await h.page.keyboard.type('keep one.txt');
    await h.page.keyboard.press('Enter');
    const denied = await first;
    expect(textOf(denied)).toContain("The user denied 'delete_file': keep one.txt");
    expect(existsSync(file('one.txt'))).toBe(true);

    await eventually(async () => expect(await focusedCardId()).toBe(idTwo));
    await h.page.keyboard.press('a');
    expect((await second).isError).toBeFalsy();
    expect(existsSync(file('two.txt'))).toBe(false);
    await h.page.getByTestId('approval-status').filter({ hasText: 'Approved once: delete_file.' }).waitFor();
  });

  it('leaves a card saying the call was withdrawn when its caller is gone, and it cannot be approved', async () => {
    await h.open('approvals');
    const call = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'keep.txt' } }, undefined, {
      timeout: 1_000,
    });
    await expect(call).rejects.toThrow(/Request timed out/);
    const ended = h.page.getByTestId('ended-approvals').getByTestId('pending-approval');
    await ended.waitFor();
    expect(await ended.getByTestId('approval-ended').textContent()).toContain(
      'Withdrawn: the caller is gone (it cancelled, timed out or disconnected). This call will not run.',
    );
    expect(await ended.getByRole('button', { name: 'Approve once' }).isDisabled()).toBe(true);
    await h.shot('approval-withdrawn');
    await eventually(async () =>
      expect(await h.page.getByTestId('audit-table').textContent()).toContain('caller gone'),
    );
    await ended.getByRole('button', { name: 'Dismiss' }).click();
    await h.page.getByTestId('ended-approvals').waitFor({ state: 'detached' });
    expect(existsSync(file('keep.txt'))).toBe(true);
  });

  it('opens the card a desktop notification was about, and the card a link names', async () => {
    await h.open('overview');
    const call = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'keep.txt' } });
    await eventually(async () => expect(await h.host.api.pendingApprovals({})).toHaveLength(1));
    const [item] = await h.host.api.pendingApprovals({});
    // What the Electron shell sends its window when its notification is clicked.
    h.host.events.emit({ type: 'open-approval', approvalId: item!.approvalId });
    await eventually(async () =>
      expect(await h.page.evaluate(() => location.hash)).toBe(`#/approvals/${item!.approvalId}`),
    );
    await eventually(async () => expect(await focusedCardId()).toBe(item!.approvalId));
    await h.page.goto(`${h.host.address.ui}#/overview`);
    await h.page.locator('h1').first().waitFor();
    await h.page.goto(`${h.host.address.ui}#/approvals/${encodeURIComponent(item!.approvalId)}`);
    await eventually(async () => expect(await focusedCardId()).toBe(item!.approvalId));
    await card().getByRole('button', { name: 'Deny' }).click();
    expect((await call).isError).toBe(true);
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
