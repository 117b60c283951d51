/**
 * The installed skills, live: what the store holds, the tools each brings registered as
 * `skill.<skill>.<tool>` while the skill is enabled (the registry's change event becomes MCP's
 * tools/list_changed), and a change event of its own for the skills' prompts and resources.
 * Installs, removals and switches run one at a time, so two calls about one skill never interleave.
 */
import { type Disposable, Emitter } from '../core/disposable';
import type { RiskLevel } from '../core/metadata';
import type { ToolRegistry } from '../core/registry';
import { ToolCallError } from '../core/result';
import type { TelemetryReader } from '../orchestration';
import { type SkillFrontMatter, parseSkillMd } from './front-matter';
import type { SkillInstaller } from './skill-installer';
import { skillToolId } from './skill-name';
import type { SkillOrigin, SkillRecord, SkillStore } from './skill-store';
import { type SkillScriptRunner, compileSkillTool } from './skill-tool-compiler';
import { toolDeclarationIssues } from './skill-tool-declaration';
import type { ValidatedSkill } from './skill-validation';
import { SKILLS_TOOLSET } from './toolset';

export type SkillToolState = 'registered' | 'disabled' | 'unavailable';

export interface SkillToolView {
  id: string;
  name: string;
  kind: 'steps' | 'script';
  description: string;
  risk?: RiskLevel;
  state: SkillToolState;
  /** Why the tool is unavailable. */
  reason?: string;
}

export interface InstalledSkill extends SkillRecord {
  description: string;
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
  /** The instructions (SKILL.md after the front matter). */
  body: string;
  tools: SkillToolView[];
  /** Set when the stored SKILL.md no longer parses (then the skill brings nothing). */
  problem?: string;
}

export interface SkillCatalogDeps {
  store: SkillStore;
  installer: SkillInstaller;
  registry: ToolRegistry;
  telemetry?: TelemetryReader;
  scripts?: SkillScriptRunner;
  now?: () => number;
}

export class SkillCatalog {
  private readonly live = new Map<string, InstalledSkill>();
  private readonly registrations = new Map<string, Disposable[]>();
  private readonly changes = new Emitter<void>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly deps: SkillCatalogDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Registers every stored skill's tools; call once the other families are registered. */
  load(): { loaded: string[]; problems: Array<{ name: string; reason: string }> } {
    const problems: Array<{ name: string; reason: string }> = [];
    for (const record of this.deps.store.list()) {
      const skill = this.activate(record);
      if (skill.problem) problems.push({ name: skill.name, reason: skill.problem });
      for (const t of skill.tools)
        if (t.state === 'unavailable') problems.push({ name: t.id, reason: t.reason ?? 'unavailable' });
    }
    return { loaded: [...this.live.keys()], problems };
  }

  list(): InstalledSkill[] {
    return [...this.live.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): InstalledSkill | undefined {
    return this.live.get(name);
  }

  has(name: string): boolean {
    return this.live.has(name);
  }

  onChange(listener: () => void): Disposable {
    return this.changes.on(listener);
  }

  install(
    skill: ValidatedSkill,
    meta: { source: string; origin: SkillOrigin; replace: boolean },
  ): Promise<{ skill: InstalledSkill; replaced: boolean }> {
    return this.serial(async () => {
      const existing = this.live.get(skill.name);
      if (existing && !meta.replace) {
        throw new ToolCallError('INVALID_ARGUMENT', `A skill named '${skill.name}' is installed already.`, {
          hint: 'Pass replace: true to replace it with this one, or remove it first with skill_uninstall.',
          data: { fields: ['replace'], skill: skill.name },
        });
      }
      await this.deps.installer.write(skill.name, skill.files);
      const at = this.now();
      const record: SkillRecord = {
        name: skill.name,
        skillMd: skill.skillMd,
        source: meta.source,
        origin: meta.origin,
        enabled: existing?.enabled ?? true,
        files: skill.files.length,
        bytes: skill.files.reduce((n, f) => n + f.data.length, 0),
        installedAt: existing?.installedAt ?? at,
        updatedAt: at,
      };
      try {
        this.deps.store.save(record);
      } catch (e) {
        if (!existing) await this.deps.installer.remove(skill.name).catch(() => undefined);
        throw e;
      }
      const installed = this.activate(record);
      this.changes.emit();
      return { skill: installed, replaced: existing !== undefined };
    });
  }

  uninstall(name: string): Promise<InstalledSkill> {
    return this.serial(async () => {
      const skill = this.mustGet(name);
      this.deps.store.remove(name);
      this.deactivate(name);
      this.live.delete(name);
      await this.deps.installer.remove(name);
      this.changes.emit();
      return skill;
    });
  }

  setEnabled(name: string, enabled: boolean): Promise<InstalledSkill> {
    return this.serial(async () => {
      this.mustGet(name);
      this.deps.store.setEnabled(name, enabled, this.now());
      const record = this.deps.store.get(name);
      if (!record) throw this.notFound(name);
      const skill = this.activate(record);
      this.changes.emit();
      return skill;
    });
  }

  private mustGet(name: string): InstalledSkill {
    const skill = this.live.get(name);
    if (!skill) throw this.notFound(name);
    return skill;
  }

  private notFound(name: string): ToolCallError {
    const known = [...this.live.keys()];
    return new ToolCallError('NOT_FOUND', `No skill named '${name}' is installed.`, {
      hint: `skill_list shows the installed skills${known.length ? ` (${known.slice(0, 10).join(', ')})` : ''}.`,
      data: { fields: ['name'] },
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** (Re)builds the live view of a record and registers its tools when enabled. */
  private activate(record: SkillRecord): InstalledSkill {
    this.deactivate(record.name);
    const parsed = parseSkillMd(record.skillMd);
    if (!parsed.ok) {
      const issues = parsed.issues.map((i) => `${i.field}: ${i.message}`).join('; ');
      const skill: InstalledSkill = {
        ...record,
        description: '',
        metadata: {},
        body: '',
        tools: [],
        problem: `the stored SKILL.md does not parse: ${issues}`,
      };
      this.live.set(record.name, skill);
      return skill;
    }
    const fm = parsed.value.frontMatter;
    const tools = record.enabled ? this.registerTools(record.name, fm) : this.disabledTools(record.name, fm);
    const skill: InstalledSkill = {
      ...record,
      description: fm.description,
      ...(fm.license ? { license: fm.license } : {}),
      ...(fm.compatibility ? { compatibility: fm.compatibility } : {}),
      metadata: fm.metadata ?? {},
      body: parsed.value.body,
      tools,
    };
    this.live.set(record.name, skill);
    return skill;
  }

  private disabledTools(skill: string, fm: SkillFrontMatter): SkillToolView[] {
    return (fm.tools ?? []).map((decl) => ({
      id: skillToolId(skill, decl.name),
      name: decl.name,
      kind: decl.script ? 'script' : 'steps',
      description: decl.description,
      state: 'disabled',
    }));
  }

  private registerTools(skill: string, fm: SkillFrontMatter): SkillToolView[] {
    const { registry } = this.deps;
    const handles: Disposable[] = [];
    const views = (fm.tools ?? []).map((decl): SkillToolView => {
      const base = {
        id: skillToolId(skill, decl.name),
        name: decl.name,
        kind: decl.script ? ('script' as const) : ('steps' as const),
        description: decl.description,
      };
      const issues = toolDeclarationIssues([decl], undefined, registry);
      if (issues.length > 0) {
        return { ...base, state: 'unavailable', reason: issues.map((i) => `${i.field}: ${i.message}`).join('; ') };
      }
      try {
        const tool = compileSkillTool(skill, decl, {
          registry,
          skillDir: this.deps.installer.folderOf(skill),
          ...(this.deps.telemetry ? { telemetry: this.deps.telemetry } : {}),
          ...(this.deps.scripts ? { scripts: this.deps.scripts } : {}),
        });
        handles.push(registry.register(tool, 'REJECT', SKILLS_TOOLSET));
        return { ...base, risk: tool.metadata.risk, state: 'registered' };
      } catch (e) {
        return { ...base, state: 'unavailable', reason: (e as Error).message };
      }
    });
    this.registrations.set(skill, handles);
    return views;
  }

  private deactivate(name: string): void {
    for (const handle of this.registrations.get(name) ?? []) handle.dispose();
    this.registrations.delete(name);
  }
}
