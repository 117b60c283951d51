/**
 * Rule: tool pairs an agent repeats (≥ 3 adjacent successful calls) are suggested on the
 * Shortcuts page; one click defines the suggestion, which becomes a tool at once: listed over MCP,
 * callable by agents, and runnable from the page's own form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';
import { publishedName } from '../../tools/core/published-name';

const SHORTCUT = 'shortcut.uuid_generate_then_calculate';

describe('Shortcuts page', () => {
  let h: UiHarness;
  beforeAll(async () => {
    h = await startUiHarness();
  });
  afterAll(async () => h?.close());

  it('has no suggestion and no shortcut before any calls', async () => {
    await h.open('shortcuts');
    await h.page.getByText('No suggestions yet.').waitFor();
    await h.page.getByText('No shortcuts defined.').waitFor();
  });

  it('suggests a pair the agent called three times in a row, live', async () => {
    for (let i = 0; i < 3; i++) {
      await h.mcp.callTool({ name: 'uuid_generate', arguments: {} });
      await h.mcp.callTool({ name: 'calculate', arguments: { expression: `${i} + 1` } });
    }
    const suggestion = h.page.getByTestId('shortcut-suggestion').filter({ hasText: 'uuid_generate → calculate' });
    await suggestion.waitFor({ timeout: 15_000 });
    expect(await suggestion.textContent()).toContain(SHORTCUT);
  });

  it('defines the suggestion with one click and the shortcut becomes an MCP tool', async () => {
    await h.page.getByRole('button', { name: `Define ${SHORTCUT}` }).click();
    const defined = h.page.getByTestId('defined-shortcut').filter({ hasText: SHORTCUT });
    await defined.waitFor();
    await eventually(async () =>
      expect((await h.mcp.listTools()).tools.map((t) => t.name)).toContain(publishedName(SHORTCUT)),
    );
    const result = await h.mcp.callTool({ name: SHORTCUT, arguments: { expression: '20 + 22' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('42');
  });

  it('runs the shortcut from its form on the page', async () => {
    const defined = h.page.getByTestId('defined-shortcut').filter({ hasText: SHORTCUT });
    await defined.getByLabel(/expression/).fill('5 * 5');
    await defined.getByRole('button', { name: `Run ${SHORTCUT}` }).click();
    const outcome = defined.locator('[data-testid="call-outcome"].ok');
    await outcome.waitFor();
    expect(await outcome.textContent()).toContain('25');
    await h.shot('shortcuts');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
