/**
 * Rule: the Overview tells a person how to connect an agent (URL, a token of its own per client,
 * shown only right after it is created, listed and revocable, with the toolsets the person chose
 * for it; client configs) and shows what calls did; the Tools page shows the toolsets with their
 * size and clients, lists the catalog, and its Try-it form calls a tool through the real pipeline,
 * showing errors with their code and hint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from './support/closed-port';
import { eventually } from './support/eventually';
import { type UiHarness, connectMcp, startUiHarness } from './support/ui-harness';

describe('Overview and Tools pages', () => {
  let h: UiHarness;
  let createdToken = '';
  beforeAll(async () => {
    h = await startUiHarness();
  });
  afterAll(async () => h?.close());

  it('shows no token until the person creates one for a client, masks it until revealed, and copies it', async () => {
    await h.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.address.ui.replace(/\/$/, '') });
    await h.open('overview');
    const config = h.page.getByTestId('client-config');
    await config.waitFor();
    expect(await config.textContent()).toContain('<create a token for this client>');
    expect(await h.page.locator('body').innerText()).not.toContain(h.host.token);
    expect(
      await h.page.getByRole('button', { name: 'Copy Cursor / Windsurf (mcpServers) configuration' }).count(),
    ).toBe(0);

    await h.page.getByLabel('Token name').fill('my-cursor');
    await h.page.getByRole('button', { name: 'Create a token for Cursor / Windsurf (mcpServers)' }).click();
    const token = h.page.getByTestId('mcp-token');
    await token.waitFor();
    expect(await token.textContent()).toMatch(/^•+/);
    await h.page.getByRole('button', { name: 'Copy token' }).click();
    const created = await h.page.evaluate(() => navigator.clipboard.readText());
    expect(created).toMatch(/^tg_[\w-]{40,}$/);
    expect(await config.textContent()).not.toContain(created);
    await h.page.getByRole('button', { name: 'Reveal token' }).click();
    expect(await token.textContent()).toBe(created);
    expect(JSON.parse((await config.textContent()) ?? '')).toEqual({
      mcpServers: { toolgate: { url: h.host.address.mcp, headers: { Authorization: `Bearer ${created}` } } },
    });
    createdToken = created;
  });

  it('gives each client its own working token, listed by name and revocable', async () => {
    const agent = await connectMcp({ address: h.host.address, token: createdToken }, 'cursor-e2e');
    expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
    await h.page.reload();
    const row = h.page.getByTestId('client-token-my-cursor');
    await row.waitFor();
    expect(await row.textContent()).toContain('1 open session');
    // The host keeps only a digest: after a reload the token is nowhere on the page.
    expect(await h.page.locator('body').innerText()).not.toContain(createdToken);
    await h.page.getByRole('button', { name: 'Revoke the token of my-cursor' }).click();
    await row.waitFor({ state: 'detached' });
    await expect(agent.listTools()).rejects.toThrow(/401|revoked/);
    await agent.close().catch(() => undefined);
  });

  it('creates a client with the toolsets the person ticks, and the client lists exactly those', async () => {
    await h.open('overview');
    const picker = h.page.getByRole('group', { name: 'Toolsets this client may use' });
    await picker.getByRole('checkbox', { name: /^device / }).waitFor();
    expect(await picker.getByRole('checkbox', { name: /^device / }).isChecked()).toBe(true);
    expect(await picker.getByRole('checkbox', { name: /^orchestration / }).isChecked()).toBe(true);
    await picker.getByRole('checkbox', { name: /^device / }).uncheck();
    await picker.getByRole('checkbox', { name: /^orchestration / }).uncheck();
    await picker.getByRole('checkbox', { name: /^files / }).check();
    await h.page.getByLabel('Token name').fill('files-only');
    await h.page.getByRole('button', { name: /^Create a token for / }).click();
    await h.page.getByRole('button', { name: 'Reveal token' }).click();
    const token = (await h.page.getByTestId('mcp-token').textContent()) ?? '';
    const agent = await connectMcp({ address: h.host.address, token }, 'files-only-agent');
    const names = (await agent.listTools()).tools.map((x) => x.name);
    expect(names).toContain('read_file');
    expect(names).toContain('toolset_enable');
    expect(names).not.toContain('ui_dump');
    await agent.close();
    await h.page.reload();
    expect(await h.page.getByTestId('client-toolsets-files-only').textContent()).toBe('Toolsets: files');
  });

  it("changes a client's toolsets from its row", async () => {
    await h.page.getByRole('button', { name: 'Change the toolsets of files-only' }).click();
    const picker = h.page.getByRole('group', { name: 'Toolsets files-only may use' });
    await picker.getByRole('checkbox', { name: /^browser / }).check();
    await h.page.getByRole('button', { name: 'Save toolsets' }).click();
    await eventually(async () =>
      expect(await h.page.getByTestId('client-toolsets-files-only').textContent()).toBe('Toolsets: files, browser'),
    );
    const tokens = await h.host.api.clientTokens({});
    expect(tokens.find((c) => c.name === 'files-only')?.toolsets).toEqual(['files', 'browser']);
  });

  it('offers client configurations built from the real endpoint', async () => {
    expect(await h.page.getByTestId('mcp-url').textContent()).toBe(h.host.address.mcp);
    await h.page.getByRole('button', { name: 'Claude Code' }).click();
    await h.page.getByRole('button', { name: 'Create a token for Claude Code' }).click();
    await h.page.getByRole('button', { name: 'Reveal token' }).click();
    const token = (await h.page.getByTestId('mcp-token').textContent()) ?? '';
    expect(await h.page.getByTestId('client-config').textContent()).toBe(
      `claude mcp add --transport http toolgate ${h.host.address.mcp} --header 'Authorization: Bearer ${token}'`,
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
      expect(await h.page.getByTestId('calls-window').textContent()).toMatch(
        /^3 calls in the last 30 minutes: 3 succeeded\./,
      ),
    );
    await h.shot('overview');
  });

  it("counts a caller's mistake apart, not as the tool failing; a tool whose run fails is listed at once", async () => {
    await h.mcp.callTool({ name: 'calculate', arguments: { expression: '' } });
    await eventually(async () =>
      expect(await h.page.getByTestId('calls-window').textContent()).toMatch(
        /^4 calls in the last 30 minutes: 3 succeeded, 1 caller mistake\./,
      ),
    );
    await h.page.getByTestId('no-failing-tools').waitFor();
    await h.mcp.callTool({ name: 'web_fetch', arguments: { url: await closedPortUrl() } });
    const failing = h.page.getByTestId('failing-tools');
    await failing.waitFor();
    const text = (await failing.textContent()) ?? '';
    expect(text).toContain('web_fetch');
    expect(text).not.toContain('calculate');
    expect(text).toMatch(/EXECUTION_FAILED .*refused/i);
    expect(text).toContain('1 of 1 call failed');
  });

  it('shows each toolset with its size in tools/list and the clients that may use it', async () => {
    await h.open('tools');
    const files = h.page.getByTestId('toolset-files');
    await files.waitFor();
    const text = (await files.textContent()) ?? '';
    expect(text).toMatch(/files/);
    expect(text).toMatch(/\d+(\.\d)? KB/);
    expect(text).toContain('files-only');
    expect(await h.page.getByTestId('toolset-toolsets').textContent()).toContain('every client');
    const listed = (await h.host.api.listToolsets({})).find((t) => t.name === 'files');
    expect(listed?.toolIds).toContain('read_file');
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
