/**
 * Rule (docs/architecture.md#tool-families): the skills family is exactly the seed's five tools,
 * each in the skills category with every input field described; installing and removing are HIGH
 * and destructive (a person approves each), creating is MEDIUM like shortcut_define, listing and
 * searching are LOW and read-only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../tools/core/registry';
import { InMemorySkillStore, skillsFamily } from '../../tools/skills';
import { SelfGuard } from '../../tools/common/self-guard';

const dir = mkdtempSync(join(tmpdir(), 'skills-catalog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { tools } = skillsFamily({
  self: new SelfGuard(),
  registry: new ToolRegistry(),
  store: new InMemorySkillStore(),
  dir: join(dir, 'skills'),
  files: { workspaceRoot: dir },
});

describe('the skills family', () => {
  it('is exactly the five seed tools', () => {
    expect(tools.map((t) => t.id).sort()).toEqual([
      'skill_create',
      'skill_install',
      'skill_list',
      'skill_search',
      'skill_uninstall',
    ]);
  });

  it('describes every tool in one line (its fields as test/host/description-style.test.ts says)', () => {
    for (const t of tools) expect(t.description, t.id).toMatch(/^[^\n]{40,320}$/);
  });

  it('declares risk, category, the four hints and a run policy', () => {
    const view = Object.fromEntries(
      tools.map((t) => {
        const a = t.metadata.annotations;
        return [
          t.id,
          [
            t.metadata.category,
            t.metadata.risk,
            a.readOnlyHint,
            a.destructiveHint,
            a.idempotentHint,
            a.openWorldHint,
            t.runPolicy,
          ],
        ];
      }),
    );
    expect(view).toEqual({
      skill_search: ['skills', 'LOW', true, false, true, true, 'quickRead'],
      skill_install: ['skills', 'HIGH', false, true, false, true, 'mutating'],
      skill_create: ['skills', 'MEDIUM', false, false, false, false, 'mutating'],
      skill_list: ['skills', 'LOW', true, false, true, false, 'quickRead'],
      skill_uninstall: ['skills', 'HIGH', false, true, true, false, 'mutating'],
    });
  });
});
