/**
 * Rule: every enabled skill is an MCP prompt (prompts/list, prompts/get: its instructions, its
 * tools by the names the client calls, and the task) and a resource skill://<name>/SKILL.md
 * holding the file as installed; a disabled or removed skill is neither, and every change is
 * announced with prompts/list_changed and resources/list_changed. A name that is no prompt or
 * resource is MCP's own error, naming where to look.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_SKILLS } from '../../tools/skills';
import { type TestHost, connectClient, startTestHost } from '../host/harness';

let t: TestHost;
let client: Client;
const seen = { prompts: 0, resources: 0, tools: 0 };
const firstText = (r: { messages: Array<{ content: unknown }> }) =>
  (r.messages[0]?.content as { text?: string } | undefined)?.text ?? '';

beforeAll(async () => {
  t = await startTestHost();
  client = await connectClient(t.host, 'prompt-reader');
  client.setNotificationHandler(PromptListChangedNotificationSchema, async () => void seen.prompts++);
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => void seen.resources++);
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void seen.tools++);
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('skills as prompts and resources', () => {
  it('announces prompts and resources in its capabilities', () => {
    expect(client.getServerCapabilities()).toMatchObject({
      prompts: { listChanged: true },
      resources: { listChanged: true },
      tools: { listChanged: true },
    });
  });

  it('lists the bundled skills as prompts with a task argument', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['android-app-smoke-test', 'web-form-check']);
    expect(prompts[1]).toMatchObject({
      name: 'web-form-check',
      description: expect.stringContaining('Checks a web form in the browser'),
      arguments: [{ name: 'task', required: false }],
    });
  });

  it("gives a prompt's instructions, its tools by their MCP names, and the task", async () => {
    const prompt = await client.getPrompt({ name: 'web-form-check', arguments: { task: 'Review the sign-up form' } });
    const text = firstText(prompt);
    expect(prompt.messages[0]?.role).toBe('user');
    expect(text).toContain('# Web form check');
    expect(text).toContain('- skill_web-form-check_open_and_snapshot: Opens a page in the browser');
    expect(text.trim().endsWith('Task: Review the sign-up form')).toBe(true);
  });

  it('reads skill://<name>/SKILL.md as the file was installed', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'skill://android-app-smoke-test/SKILL.md',
      'skill://web-form-check/SKILL.md',
    ]);
    expect(resources[0]).toMatchObject({ mimeType: 'text/markdown', name: 'android-app-smoke-test/SKILL.md' });
    const read = await client.readResource({ uri: 'skill://android-app-smoke-test/SKILL.md' });
    expect(read.contents).toEqual([
      {
        uri: 'skill://android-app-smoke-test/SKILL.md',
        mimeType: 'text/markdown',
        text: BUNDLED_SKILLS['android-app-smoke-test'],
      },
    ]);
  });

  it('answers an unknown prompt or resource with the protocol error that says where to look', async () => {
    await expect(client.getPrompt({ name: 'no-such-skill' })).rejects.toThrow(
      /Unknown prompt 'no-such-skill'; prompts\/list/,
    );
    await expect(client.readResource({ uri: 'skill://no-such-skill/SKILL.md' })).rejects.toThrow(
      /Resource not found: skill:\/\/no-such-skill\/SKILL\.md/,
    );
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/Resource not found/);
  });

  it('hides a disabled skill everywhere and announces it, then brings it back', async () => {
    const before = { ...seen };
    expect(await t.host.api.setSkillEnabled({ name: 'web-form-check', enabled: false })).toEqual({
      ok: true,
      message: 'web-form-check disabled.',
    });
    await expect.poll(() => seen.prompts).toBeGreaterThan(before.prompts);
    await expect.poll(() => seen.resources).toBeGreaterThan(before.resources);
    await expect.poll(() => seen.tools).toBeGreaterThan(before.tools);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['android-app-smoke-test']);
    expect((await client.listResources()).resources).toHaveLength(1);
    expect((await client.listTools()).tools.map((x) => x.name)).not.toContain('skill_web-form-check_open_and_snapshot');
    await expect(client.getPrompt({ name: 'web-form-check' })).rejects.toThrow(/Unknown prompt/);
    await t.host.api.setSkillEnabled({ name: 'web-form-check', enabled: true });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('web-form-check');
    expect((await client.listTools()).tools.map((x) => x.name)).toContain('skill_web-form-check_open_and_snapshot');
  });

  it('adds a prompt for a skill created by an agent, announced to other sessions', async () => {
    const other = await connectClient(t.host, 'another-agent');
    let announced = 0;
    other.setNotificationHandler(PromptListChangedNotificationSchema, async () => void announced++);
    const r = await client.callTool({
      name: 'skill_create',
      arguments: {
        name: 'release-notes',
        description: 'Writes release notes from merged changes.',
        instructions: '# Release notes\n\nGroup changes by kind.',
      },
    });
    expect(r.isError).toBeFalsy();
    await expect.poll(() => announced).toBeGreaterThan(0);
    expect((await other.listPrompts()).prompts.map((p) => p.name)).toContain('release-notes');
    const got = await other.getPrompt({ name: 'release-notes' });
    expect(firstText(got)).toContain('Group changes by kind.');
    await other.close();
  });
});
