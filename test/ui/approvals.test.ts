/**
 * Rule: a destructive call an agent makes waits on the Approvals page until a person decides; the
 * click decides the waiting call (deny keeps the file and tells the agent why, approve runs it),
 * the page is usable by keyboard alone, and every decision lands in the audit history.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

describe('Approvals page', () => {
  let h: UiHarness;
  beforeAll(async () => {
    h = await startUiHarness({ approvalTimeoutMs: 60_000 });
  });
  afterAll(async () => h?.close());

  it('says nothing waits before any destructive call', async () => {
    await h.open('approvals');
    await h.page.getByText('Nothing waits for approval.').waitFor();
  });

  it('denies by keyboard: the waiting call gets PERMISSION_DENIED with the reason, the file stays', async () => {
    writeFileSync(join(h.workspace, 'keep-me.txt'), 'precious');
    const call = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'keep-me.txt' } });
    const card = h.page.getByTestId('pending-approval');
    await card.waitFor();
    expect(await card.textContent()).toContain('delete_file');
    expect(await card.textContent()).toContain('keep-me.txt');
    expect(await card.textContent()).toContain('HIGH risk');

    // The first waiting call takes focus; from there Tab reaches the reason and the buttons.
    await eventually(async () =>
      expect(await h.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('pending-approval'),
    );
    for (let i = 0; i < 5 && !(await h.page.evaluate(() => document.activeElement?.tagName === 'INPUT')); i++)
      await h.page.keyboard.press('Tab');
    await h.page.keyboard.type('not this file');
    for (let i = 0; i < 6 && (await h.page.evaluate(() => document.activeElement?.textContent)) !== 'Deny'; i++)
      await h.page.keyboard.press('Tab');
    expect(await h.page.evaluate(() => document.activeElement?.textContent)).toBe('Deny');
    await h.page.keyboard.press('Enter');

    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('PERMISSION_DENIED');
    expect(textOf(result)).toContain('not this file');
    expect(existsSync(join(h.workspace, 'keep-me.txt'))).toBe(true);
    await h.page.getByText('Nothing waits for approval.').waitFor();
  });

  it('approves once by click: the waiting call runs and deletes the file', async () => {
    writeFileSync(join(h.workspace, 'doomed.txt'), 'bye');
    const call = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'doomed.txt' } });
    const card = h.page.getByTestId('pending-approval');
    await card.waitFor();
    await h.shot('approvals');
    await card.getByRole('button', { name: 'Approve once' }).click();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(existsSync(join(h.workspace, 'doomed.txt'))).toBe(false);
    await h.page.getByTestId('approval-status').filter({ hasText: 'Approved once: delete_file.' }).waitFor();
  });

  it('records both decisions in the audit history with the reason', async () => {
    const table = h.page.getByTestId('audit-table');
    await eventually(async () => expect(await table.locator('tbody tr').count()).toBe(2));
    const text = (await table.textContent()) ?? '';
    expect(text).toContain('deny');
    expect(text).toContain('not this file');
    expect(text).toContain('approve_once');
    // The session is named for the client token it came with, never by its MCP session id.
    expect(text).toMatch(/default#\d+/);
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
