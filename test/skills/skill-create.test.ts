/**
 * Rule: skill_create writes a new skill from its parts, checked field by field with the same rules
 * as an installed one (bad fields refused together, each named as the argument it came in), and
 * installs it at once; skill_list shows every skill with its tools, source and state.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';

let t: TestHost;
let client: Client;

beforeAll(async () => {
  t = await startTestHost();
  client = await connectClient(t.host, 'skill-author');
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args });
  return { r, s: r.structuredContent as Record<string, unknown> & { data?: { fields?: string[] } } };
};

describe('skill_create', () => {
  it('creates a skill with a step tool and a reference file, without asking (like shortcut_define)', async () => {
    const { r, s } = await call('skill_create', {
      name: 'unit-sums',
      description: 'Adds numbers and explains the sum.',
      instructions: '# Sums\n\nCall skill_unit-sums_add with an expression.',
      license: 'MIT',
      metadata: { author: 'agent' },
      tools: [
        {
          name: 'add',
          description: 'Evaluates an arithmetic expression.',
          params: [{ name: 'expression', type: 'string', description: 'e.g. 2 + 2' }],
          steps: [{ tool: 'calculate', args: { expression: '{expression}' } }],
        },
      ],
      files: [{ path: 'references/examples.md', content: '2 + 2 = 4' }],
    });
    expect(r.isError).toBeFalsy();
    expect(s).toMatchObject({
      created: 'unit-sums',
      skill: {
        origin: 'created',
        source: 'skill_create',
        files: 2,
        tools: [{ callAs: 'skill_unit-sums_add', risk: 'LOW' }],
      },
    });
    const md = readFileSync(join(t.dataDir, 'skills', 'unit-sums', 'SKILL.md'), 'utf8');
    expect(md).toMatch(/^---\nname: unit-sums\ndescription: Adds numbers and explains the sum\.\nlicense: MIT\n/);
    expect(readFileSync(join(t.dataDir, 'skills', 'unit-sums', 'references', 'examples.md'), 'utf8')).toBe('2 + 2 = 4');
    expect(
      textOf(await client.callTool({ name: 'skill_unit-sums_add', arguments: { expression: '20 + 22' } })),
    ).toContain('42');
  });

  it('refuses every bad field at once, each named as its argument', async () => {
    const { s } = await call('skill_create', {
      name: 'Bad--Name',
      description: ' ',
      instructions: 'x',
      tools: [
        { name: 'go', description: 'd', steps: [{ tool: 'no_such_tool' }] },
        { name: 'go', description: 'd', steps: [{ tool: 'calculate', args: { expression: '{missing}' } }] },
      ],
      files: [{ path: '../escape.md', content: 'x' }],
    });
    expect(s.code).toBe('INVALID_ARGUMENT');
    expect(s.data?.fields).toEqual(
      expect.arrayContaining([
        'name',
        'description',
        'tools[0].steps[0].tool',
        'tools[1].name',
        'tools[1].steps[0].args.expression',
        'files[0].path',
      ]),
    );
    expect(String(s.message)).toContain("unknown tool 'no_such_tool'");
    expect(String(s.message)).toContain("'go' is declared twice");
  });

  it('refuses a schema-level mistake before running, naming the field', async () => {
    const { s } = await call('skill_create', {
      name: 'x',
      description: 'd',
      instructions: 'i',
      tools: [{ name: 'Go!', description: 'd', steps: [] }],
    });
    expect(s).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['tools[0].name'] } });
  });

  it('refuses a name that is installed already', async () => {
    const { s } = await call('skill_create', { name: 'web-form-check', description: 'd', instructions: 'i' });
    expect(s).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['name'] } });
  });
});

describe('skill_list', () => {
  it('lists every skill with its tools, origin and state', async () => {
    const { s } = await call('skill_list', {});
    const skills = s.skills as Array<{ name: string; origin: string; state: string; tools: Array<{ callAs: string }> }>;
    expect(skills.map((x) => [x.name, x.origin, x.state])).toEqual([
      ['android-app-smoke-test', 'bundled', 'enabled'],
      ['unit-sums', 'created', 'enabled'],
      ['web-form-check', 'bundled', 'enabled'],
    ]);
    expect(skills[0]?.tools.map((x) => x.callAs)).toEqual(['skill_android-app-smoke-test_launch_and_inspect']);
    expect(JSON.stringify(skills)).not.toContain('"instructions"');
  });

  it('shows one skill with its instructions, and says a disabled one is disabled', async () => {
    await t.host.api.setSkillEnabled({ name: 'unit-sums', enabled: false });
    const { s } = await call('skill_list', { name: 'unit-sums' });
    expect(s.skills).toEqual([
      expect.objectContaining({
        name: 'unit-sums',
        state: 'disabled',
        instructions: expect.stringContaining('# Sums'),
        tools: [expect.objectContaining({ callAs: 'skill_unit-sums_add', state: 'disabled' })],
      }),
    ]);
    expect(t.host.registry.has('skill.unit-sums.add')).toBe(false);
  });

  it('answers NOT_FOUND for a skill that is not installed', async () => {
    const { s } = await call('skill_list', { name: 'nope' });
    expect(s).toMatchObject({ code: 'NOT_FOUND', data: { fields: ['name'] } });
  });
});
