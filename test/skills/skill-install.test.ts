/**
 * Rule: skill_install takes a skill from a workspace folder or archive, asks a person first, and
 * only then installs it, atomically, into DATA/skills; the tools it declares join the catalog at
 * once as skill_<name>_<tool> (with tools/list_changed), run their steps through the pipeline
 * like a shortcut, carry their worst step's risk, survive a restart, and leave with
 * skill_uninstall, which also asks. Installing runs nothing of the skill; its scripts are refused
 * with UNSUPPORTED while this host has no terminal sandbox.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { answerApprovals } from './support/approvals';
import { skillMd, tarGz, zip } from './support/archives';
import { shoutSkill, writeTree } from './support/skill-fixtures';

let t: TestHost;
let client: Client;
let workspace: string;
let listChanged = 0;

beforeAll(async () => {
  t = await startTestHost({ approvalTimeoutMs: 5000 });
  workspace = join(t.dataDir, 'workspace');
  client = await connectClient(t.host, 'skill-user');
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged++;
  });
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

const names = async () => (await client.listTools()).tools.map((x) => x.name);
const structured = (r: unknown) => (r as { structuredContent: Record<string, unknown> }).structuredContent;

async function withDecision<T>(
  decision: 'approve_once' | 'deny',
  work: () => Promise<T>,
): Promise<{ result: T; asked: string[] }> {
  const approver = answerApprovals(t.host, decision);
  try {
    return { result: await work(), asked: approver.asked };
  } finally {
    approver.stop();
  }
}

describe('installing from the workspace', () => {
  it('leaves nothing behind when the person denies the install', async () => {
    // Kept in a git checkout: .git is the repository's, not the skill's, and is left out.
    writeTree(join(workspace, 'skills', 'shout-kit'), {
      'SKILL.md': shoutSkill(),
      '.git/HEAD': 'ref: refs/heads/main\n',
    });
    const { result, asked } = await withDecision('deny', () =>
      client.callTool({ name: 'skill_install', arguments: { source: 'skills/shout-kit' } }),
    );
    expect(asked).toEqual(['skill_install']);
    expect(structured(result)).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(existsSync(join(t.dataDir, 'skills', 'shout-kit'))).toBe(false);
    expect(await names()).not.toContain('skill_shout-kit_shout');
  });

  it('installs a folder once approved, and its tool joins the list at once', async () => {
    const before = listChanged;
    const { result, asked } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_install', arguments: { source: 'skills/shout-kit' } }),
    );
    expect(asked).toEqual(['skill_install']);
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({
      installed: 'shout-kit',
      replaced: false,
      skill: {
        name: 'shout-kit',
        license: 'Apache-2.0',
        state: 'enabled',
        origin: 'installed',
        source: 'skills/shout-kit',
        files: 1,
        prompt: 'shout-kit',
        resource: 'skill://shout-kit/SKILL.md',
        tools: [
          {
            id: 'skill.shout-kit.shout',
            callAs: 'skill_shout-kit_shout',
            kind: 'steps',
            risk: 'LOW',
            state: 'registered',
          },
        ],
      },
    });
    expect(readFileSync(join(t.dataDir, 'skills', 'shout-kit', 'SKILL.md'), 'utf8')).toBe(shoutSkill());
    expect(readdirSync(join(t.dataDir, 'skills', '.staging'))).toEqual([]);
    await expect.poll(() => listChanged).toBeGreaterThan(before);
    expect(await names()).toContain('skill_shout-kit_shout');
  });

  it('runs the skill tool: each step goes through the pipeline as a nested, traced call', async () => {
    const r = await client.callTool({ name: 'skill_shout-kit_shout', arguments: { text: 'hello skills world' } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('HELLO SKILLS WORLD');
    expect(textOf(r)).toMatch(/"words": 3/);
    const spans = await t.host.api.listSpans({ limit: 50 });
    const parent = spans.find((s) => s.toolId === 'skill.shout-kit.shout');
    expect(parent).toBeDefined();
    const steps = spans.filter((s) => s.parentCallId === parent?.callId).map((s) => s.toolId);
    expect(steps).toEqual(['text_transform', 'text_transform']);
  });

  it('refuses an installed name unless replace is true, then swaps the tools', async () => {
    const again = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_install', arguments: { source: 'skills/shout-kit' } }),
    );
    expect(structured(again.result)).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['replace'] } });
    writeTree(join(workspace, 'skills', 'shout-kit'), {
      'SKILL.md': skillMd(`name: shout-kit
description: Deletes a file, then says so.
tools:
  - name: wipe
    description: Deletes a workspace file.
    params: [{ name: path, type: string, description: The file }]
    steps:
      - { tool: delete_file, args: { path: "{path}" } }`),
    });
    const replaced = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_install', arguments: { source: 'skills/shout-kit', replace: true } }),
    );
    expect(structured(replaced.result)).toMatchObject({ installed: 'shout-kit', replaced: true });
    const listed = await client.listTools();
    const wipe = listed.tools.find((x) => x.name === 'skill_shout-kit_wipe');
    expect(listed.tools.map((x) => x.name)).not.toContain('skill_shout-kit_shout');
    // The worst step decides: delete_file is HIGH and destructive, so the skill tool is too.
    expect(wipe?._meta).toMatchObject({ 'toolgate/risk': 'HIGH', 'toolgate/category': 'skills' });
    expect(wipe?.annotations?.destructiveHint).toBe(true);
  });
});

describe('installing from archives', () => {
  it.each([
    [
      'a .zip holding the skill folder',
      'zipped.zip',
      () =>
        zip([
          { name: 'zipped-kit/', mode: 0o040755 },
          { name: 'zipped-kit/SKILL.md', data: shoutSkill('zipped-kit') },
          { name: 'zipped-kit/references/notes.md', data: '# notes' },
        ]),
      'zipped-kit',
    ],
    [
      'a .skill file (a zip) with SKILL.md at its root',
      'rooted.skill',
      () => zip([{ name: 'SKILL.md', data: shoutSkill('rooted-kit') }]),
      'rooted-kit',
    ],
    [
      'a .tar.gz',
      'tarred.tar.gz',
      () =>
        tarGz([
          { name: 'tarred-kit/', type: '5' },
          { name: 'tarred-kit/SKILL.md', data: shoutSkill('tarred-kit') },
          { name: 'tarred-kit/assets/a.txt', data: 'asset' },
        ]),
      'tarred-kit',
    ],
  ] as const)('installs %s', async (_what, file, archive, name) => {
    writeFileSync(join(workspace, file), archive());
    const { result } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_install', arguments: { source: file } }),
    );
    expect(structured(result)).toMatchObject({ installed: name, skill: { source: file } });
    expect(existsSync(join(t.dataDir, 'skills', name, 'SKILL.md'))).toBe(true);
    expect(await names()).toContain(`skill_${name}_shout`);
  });

  it('answers NOT_FOUND for a source that is not there, and refuses one outside the workspace', async () => {
    const { result: missing } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_install', arguments: { source: 'nowhere.zip' } }),
    );
    expect(structured(missing)).toMatchObject({ code: 'NOT_FOUND', data: { fields: ['source'] } });
    const { result: outside } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_install', arguments: { source: '../../../etc' } }),
    );
    expect(structured(outside)).toMatchObject({ code: 'PERMISSION_DENIED' });
  });
});

describe('a skill runs nothing when installed, and its scripts only in a sandbox', () => {
  it('installs a skill with a script without running it, and the script tool answers UNSUPPORTED', async () => {
    const marker = join(t.dataDir, 'script-ran');
    writeTree(join(workspace, 'skills', 'script-kit'), {
      'SKILL.md': skillMd(`name: script-kit
description: Has a script that must not run on the host.
tools:
  - name: touch
    description: Runs scripts/touch.sh.
    script: scripts/touch.sh`),
      'scripts/touch.sh': `#!/bin/sh\ntouch ${marker}\n`,
    });
    const { result } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_install', arguments: { source: 'skills/script-kit' } }),
    );
    expect(structured(result)).toMatchObject({
      skill: { tools: [{ callAs: 'skill_script-kit_touch', kind: 'script', risk: 'HIGH', state: 'registered' }] },
    });
    const { result: ran, asked } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_script-kit_touch', arguments: {} }),
    );
    // Nothing can run, so nobody is asked to approve it.
    expect(asked).toEqual([]);
    expect(structured(ran)).toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringContaining(
        "scripts run only in Toolgate's terminal sandbox, which this host does not have",
      ),
      data: { missing: 'terminal sandbox', script: 'scripts/touch.sh' },
    });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('uninstalling', () => {
  it('keeps the skill when the person denies, and removes it all when approved', async () => {
    const denied = await withDecision('deny', () =>
      client.callTool({ name: 'skill_uninstall', arguments: { name: 'zipped-kit' } }),
    );
    expect(denied.asked).toEqual(['skill_uninstall']);
    expect(existsSync(join(t.dataDir, 'skills', 'zipped-kit'))).toBe(true);
    const before = listChanged;
    const { result } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_uninstall', arguments: { name: 'zipped-kit' } }),
    );
    expect(structured(result)).toMatchObject({ removed: 'zipped-kit', toolsRemoved: ['skill_zipped-kit_shout'] });
    expect(existsSync(join(t.dataDir, 'skills', 'zipped-kit'))).toBe(false);
    await expect.poll(() => listChanged).toBeGreaterThan(before);
    expect(await names()).not.toContain('skill_zipped-kit_shout');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('zipped-kit');
  });

  it('answers NOT_FOUND for a skill that is not installed, naming the field', async () => {
    const { result } = await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_uninstall', arguments: { name: 'never-installed' } }),
    );
    expect(structured(result)).toMatchObject({ code: 'NOT_FOUND', data: { fields: ['name'] } });
  });
});

describe('after a restart', () => {
  it('has the same skills and tools, and a removed bundled skill stays removed', async () => {
    await withDecision('approve_once', () =>
      client.callTool({ name: 'skill_uninstall', arguments: { name: 'web-form-check' } }),
    );
    const skillsBefore = (await t.host.api.skills({})).map((s) => s.name);
    await client.close();
    await t.host.close();
    const again = await startTestHost({ dataDir: t.dataDir });
    try {
      const after = await again.host.api.skills({});
      expect(after.map((s) => s.name)).toEqual(skillsBefore);
      expect(after.map((s) => s.name)).not.toContain('web-form-check');
      expect(again.host.registry.has('skill.tarred-kit.shout')).toBe(true);
      const c = await connectClient(again.host);
      const r = await c.callTool({ name: 'skill_tarred-kit_shout', arguments: { text: 'still here' } });
      expect(textOf(r)).toContain('STILL HERE');
      await c.close();
    } finally {
      await again.dispose();
    }
  });
});
