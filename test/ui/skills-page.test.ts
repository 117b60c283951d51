/**
 * Rule: the Skills page lists the installed skills with the tools each brings, reads their
 * SKILL.md, switches them off and on, and installs and removes them through the approval flow
 * (the waiting card appears on the page itself), every change reaching MCP clients at once. The
 * Settings page's GitHub section says whether a token is set, takes one without ever showing it
 * again, and the GitHub tools come and go with it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shoutSkill, writeTree } from '../skills/support/skill-fixtures';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness } from './support/ui-harness';

const TOKEN = 'ghp_uiTestTokenNeverShown000000000000000001';

describe('Skills page', () => {
  let h: UiHarness;
  beforeAll(async () => {
    const env = { ...process.env };
    delete env.TOOLGATE_GITHUB_TOKEN;
    h = await startUiHarness({ env });
    writeTree(join(h.workspace, 'skills', 'shout-kit'), { 'SKILL.md': shoutSkill() });
  });
  afterAll(async () => h?.close());

  const card = (name: string) =>
    h.page.getByTestId('skill-card').filter({ has: h.page.getByRole('heading', { name }) });
  const mcpTools = async () => (await h.mcp.listTools()).tools.map((t) => t.name);

  it('lists the bundled skills with their tools', async () => {
    await h.open('skills');
    await card('web-form-check').waitFor();
    expect(await h.page.getByTestId('skill-card').count()).toBe(2);
    const web = card('web-form-check');
    expect(await web.textContent()).toContain('skill_web-form-check_open_and_snapshot');
    expect(await web.textContent()).toContain('bundled');
  });

  it('installs a skill from the workspace after the approval given on the page', async () => {
    await h.page.getByLabel(/Workspace folder or archive/).fill('skills/shout-kit');
    await h.page.getByRole('button', { name: 'Install', exact: true }).click();
    const waiting = h.page.getByTestId('pending-approval').filter({ hasText: 'skill_install' });
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain('skills/shout-kit');
    await waiting.getByRole('button', { name: 'Approve once' }).click();
    await card('shout-kit').waitFor();
    expect(await card('shout-kit').textContent()).toContain('skill_shout-kit_shout');
    await eventually(async () => expect(await mcpTools()).toContain('skill_shout-kit_shout'));
  });

  it("reads the skill's SKILL.md", async () => {
    await card('shout-kit').getByText('Read SKILL.md').click();
    expect(await h.page.getByLabel('SKILL.md of shout-kit').textContent()).toContain(
      'description: Shouts a text and counts its words.',
    );
  });

  it('disables and enables a skill, its tool leaving and coming back', async () => {
    await h.page.getByRole('button', { name: 'Disable shout-kit' }).click();
    await h.page.getByRole('button', { name: 'Enable shout-kit' }).waitFor();
    await eventually(async () => expect(await mcpTools()).not.toContain('skill_shout-kit_shout'));
    await h.page.getByRole('button', { name: 'Enable shout-kit' }).click();
    await h.page.getByRole('button', { name: 'Disable shout-kit' }).waitFor();
    await eventually(async () => expect(await mcpTools()).toContain('skill_shout-kit_shout'));
    await h.shot('skills');
  });

  it('removes a skill after the approval given on the page', async () => {
    await h.page.getByRole('button', { name: 'Remove shout-kit' }).click();
    const waiting = h.page.getByTestId('pending-approval').filter({ hasText: 'skill_uninstall' });
    await waiting.getByRole('button', { name: 'Approve once' }).click();
    await card('shout-kit').waitFor({ state: 'detached' });
    await eventually(async () => expect(await mcpTools()).not.toContain('skill_shout-kit_shout'));
  });

  it('sets a GitHub token in Settings, never shown; the GitHub tools follow it, for a client given them', async () => {
    await h.open('settings');
    const section = h.page.getByTestId('github-settings');
    const state = section.getByTestId('github-token-state');
    await expect.poll(() => state.textContent()).toBe('not set');
    await section.getByLabel('Personal access token').fill(TOKEN);
    await section.getByRole('button', { name: 'Set token' }).click();
    await expect.poll(() => state.textContent()).toBe('set');
    await section.getByText('stored by you').waitFor();
    expect(await section.getByLabel('Replace the token').inputValue()).toBe('');
    expect(await h.page.content()).not.toContain(TOKEN);
    for (const log of readdirSync(join(h.dataDir, 'logs')))
      expect(readFileSync(join(h.dataDir, 'logs', log), 'utf8')).not.toContain(TOKEN);
    await h.shot('settings-github');
    // The new github toolset is given to no client until the person does, on the Overview page.
    expect(await mcpTools()).not.toContain('github_get_user');
    await h.open('overview');
    await h.page.getByRole('button', { name: 'Change the toolsets of default' }).click();
    await h.page
      .getByRole('group', { name: 'Toolsets default may use' })
      .getByRole('checkbox', { name: /^github / })
      .check();
    await h.page.getByRole('button', { name: 'Save toolsets' }).click();
    await h.mcp.callTool({ name: 'toolset_enable', arguments: { toolset: 'github' } });
    await eventually(async () => expect(await mcpTools()).toContain('github_get_user'));
    await h.open('settings');
    await section.getByRole('button', { name: 'Remove token' }).click();
    await expect.poll(() => state.textContent()).toBe('not set');
    await eventually(async () => expect(await mcpTools()).not.toContain('github_get_user'));
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
