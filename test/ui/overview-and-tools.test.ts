/**
 * Rule: the Overview tells a person how to connect an agent (URL, masked token, client configs)
 * and shows what calls did; the Tools page lists the catalog and its Try-it form calls a tool
 * through the real pipeline, showing errors with their code and hint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness } from './support/ui-harness';

describe('Overview and Tools pages', () => {
  let h: UiHarness;
  beforeAll(async () => {
    h = await startUiHarness();
  });
  afterAll(async () => h?.close());

  it('masks the token until revealed and copies the real one', async () => {
    await h.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.address.ui.replace(/\/$/, '') });
    await h.open('overview');
    const token = h.page.getByTestId('mcp-token');
    await token.waitFor();
    expect(await token.textContent()).not.toContain(h.host.token);
    expect(await h.page.getByTestId('client-config').textContent()).not.toContain(h.host.token);

    await h.page.getByRole('button', { name: 'Copy token' }).click();
    expect(await h.page.evaluate(() => navigator.clipboard.readText())).toBe(h.host.token);

    await h.page.getByRole('button', { name: 'Reveal token' }).click();
    expect(await token.textContent()).toBe(h.host.token);
  });

  it('offers client configurations built from the real endpoint', async () => {
    expect(await h.page.getByTestId('mcp-url').textContent()).toBe(h.host.address.mcp);
    const config = JSON.parse((await h.page.getByTestId('client-config').textContent()) ?? '') as {
      mcpServers: { toolgate: { url: string; headers: { Authorization: string } } };
    };
    expect(config.mcpServers.toolgate).toEqual({
      url: h.host.address.mcp,
      headers: { Authorization: `Bearer ${h.host.token}` },
    });

    await h.page.getByRole('button', { name: 'Claude Code' }).click();
    expect(await h.page.getByTestId('client-config').textContent()).toBe(
      `claude mcp add --transport http toolgate ${h.host.address.mcp} --header 'Authorization: Bearer ${h.host.token}'`,
    );

    await h.page.getByRole('button', { name: 'stdio bridge' }).click();
    expect(await h.page.getByTestId('client-config').textContent()).toContain(
      `bin/toolgate.cjs mcp-stdio --data-dir ${h.host.dataDir}`,
    );
  });

  it('shows calls made over MCP in the activity count without a reload', async () => {
    for (const expression of ['1 + 1', '2 * 3', '10 / 4'])
      await h.mcp.callTool({ name: 'calculate', arguments: { expression } });
    // The window total, not "this minute": the minute may roll over between the calls and the check.
    await eventually(async () =>
      expect(await h.page.getByTestId('calls-window').textContent()).toMatch(/^3 calls, 0 failed/),
    );
    await h.shot('overview');
  });

  it('lists failing tools on the Overview as soon as a call fails', async () => {
    await h.mcp.callTool({ name: 'calculate', arguments: { expression: '' } });
    const failing = h.page.getByTestId('failing-tools');
    await failing.waitFor();
    expect(await failing.textContent()).toContain('calculate');
  });

  it('groups the catalog by category and narrows it with the search box', async () => {
    await h.open('tools');
    await h.page.getByRole('heading', { name: /^files/ }).waitFor();
    await h.page.getByRole('heading', { name: /^structured/ }).waitFor();
    await h.page.getByLabel('Search tools').fill('uuid');
    await eventually(async () =>
      expect(await h.page.locator('.catalog-item').allTextContents()).toEqual([
        expect.stringContaining('uuid_generate'),
      ]),
    );
    await h.page.getByLabel('Search tools').fill('no tool is called like this');
    await h.page.getByText('No tool matches.').waitFor();
    await h.page.getByLabel('Search tools').fill('');
  });

  it('answers bad input in the Try-it form with INVALID_ARGUMENT, its message and hint', async () => {
    await h.open('tools/calculate');
    await h.page.getByRole('button', { name: 'Try it' }).click();
    const outcome = h.page.getByTestId('call-outcome');
    await outcome.waitFor();
    const text = (await outcome.textContent()) ?? '';
    expect(text).toContain('INVALID_ARGUMENT');
    expect(text).toContain('expression');
    expect(text).toContain('Hint:');
  });

  it('calls the tool through the pipeline from the generated form and shows the result', async () => {
    await h.page.getByLabel(/expression/).fill('6 * 7');
    await h.page.getByRole('button', { name: 'Try it' }).click();
    const outcome = h.page.locator('[data-testid="call-outcome"].ok');
    await outcome.waitFor();
    expect(await outcome.textContent()).toContain('42');
    await h.shot('tools');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
