/**
 * The skills Toolgate ships, installed on the first start through the same validation as any
 * other, and removable like any other: one removed stays removed (the store remembers which were
 * offered). They are written for Toolgate's own tools.
 */
import type { ToolRegistry } from '../core/registry';
import { SKILL_MD } from './limits';
import { ANDROID_APP_SMOKE_TEST } from './bundled/android-app-smoke-test';
import { WEB_FORM_CHECK } from './bundled/web-form-check';
import type { SkillCatalog } from './skill-catalog';
import type { SkillStore } from './skill-store';
import { validateSkill } from './skill-validation';

export const BUNDLED_SKILLS: Readonly<Record<string, string>> = {
  'android-app-smoke-test': ANDROID_APP_SMOKE_TEST,
  'web-form-check': WEB_FORM_CHECK,
};

/** Installs each bundled skill not offered before; returns what was installed and what could not be. */
export async function seedBundledSkills(deps: {
  catalog: SkillCatalog;
  store: SkillStore;
  registry: ToolRegistry;
  now: () => number;
}): Promise<{ installed: string[]; failed: Array<{ name: string; reason: string }> }> {
  const installed: string[] = [];
  const failed: Array<{ name: string; reason: string }> = [];
  for (const [name, text] of Object.entries(BUNDLED_SKILLS)) {
    if (deps.store.wasSeeded(name) || deps.catalog.has(name)) continue;
    const checked = validateSkill([{ path: `${name}/${SKILL_MD}`, data: Buffer.from(text) }], {
      registry: deps.registry,
    });
    if (!checked.ok) {
      failed.push({ name, reason: checked.issues.map((i) => `${i.field}: ${i.message}`).join('; ') });
      continue;
    }
    await deps.catalog.install(checked.skill, { source: 'bundled with Toolgate', origin: 'bundled', replace: false });
    deps.store.markSeeded(name, deps.now());
    installed.push(name);
  }
  return { installed, failed };
}
