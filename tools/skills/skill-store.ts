/** Where installed skills are indexed so they survive a restart; the host keeps them in SQLite. */

export type SkillOrigin = 'installed' | 'created' | 'bundled';

export interface SkillRecord {
  name: string;
  /** SKILL.md as installed. */
  skillMd: string;
  /** Workspace path or URL it came from, or `skill_create` / `bundled`. */
  source: string;
  origin: SkillOrigin;
  enabled: boolean;
  files: number;
  bytes: number;
  installedAt: number;
  updatedAt: number;
}

export interface SkillStore {
  list(): SkillRecord[];
  get(name: string): SkillRecord | undefined;
  /** Inserts or replaces by name. */
  save(record: SkillRecord): void;
  setEnabled(name: string, enabled: boolean, at: number): boolean;
  remove(name: string): boolean;
  /** Whether a bundled skill was already offered once (installed, maybe removed since). */
  wasSeeded(name: string): boolean;
  markSeeded(name: string, at: number): void;
}

export class InMemorySkillStore implements SkillStore {
  private readonly records = new Map<string, SkillRecord>();
  private readonly seeds = new Set<string>();

  list(): SkillRecord[] {
    return [...this.records.values()].sort((a, b) => a.name.localeCompare(b.name)).map((r) => ({ ...r }));
  }
  get(name: string): SkillRecord | undefined {
    const r = this.records.get(name);
    return r ? { ...r } : undefined;
  }
  save(record: SkillRecord): void {
    this.records.set(record.name, { ...record });
  }
  setEnabled(name: string, enabled: boolean, at: number): boolean {
    const r = this.records.get(name);
    if (!r) return false;
    this.records.set(name, { ...r, enabled, updatedAt: at });
    return true;
  }
  remove(name: string): boolean {
    return this.records.delete(name);
  }
  wasSeeded(name: string): boolean {
    return this.seeds.has(name);
  }
  markSeeded(name: string): void {
    this.seeds.add(name);
  }
}
