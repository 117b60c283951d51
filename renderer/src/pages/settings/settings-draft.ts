/**
 * What the person typed versus what the host has saved. Inputs hold text (a tri-state for
 * booleans); an empty input or "default" means "use the default", which the host spells `null`.
 * Only keys whose value would change are sent. Numbers the browser cannot read are sent as typed:
 * the host's validation is the authority and names the field it refuses.
 */
import type { Settings } from '../../../../shared/contract';
import type { SettingField, SettingKey } from './settings-fields';

export type TriState = 'default' | 'on' | 'off';
/** Edited inputs only; a key absent here shows the saved value. */
export type Drafts = Partial<Record<SettingKey, string>>;
export type FieldErrors = Partial<Record<SettingKey, string>>;

/** The input's text for a saved value (undefined = unset = default). */
export function draftOf(field: SettingField, saved: unknown): string {
  if (field.kind === 'boolean') return saved === true ? 'on' : saved === false ? 'off' : 'default';
  return saved === undefined || saved === null ? '' : String(saved);
}

/** The value to send for an input's text; null returns the key to its default. */
export function wireValueOf(field: SettingField, draft: string): unknown {
  if (field.kind === 'boolean') return draft === 'on' ? true : draft === 'off' ? false : null;
  if (field.kind === 'text') return draft === '' ? null : draft;
  const trimmed = draft.trim();
  if (trimmed === '') return null;
  if (field.kind === 'number') {
    const n = Number(trimmed);
    return Number.isFinite(n) ? n : trimmed;
  }
  return trimmed;
}

/** The keys to send: every edited input whose value differs from the saved one. */
export function changesFrom(fields: readonly SettingField[], saved: Settings, drafts: Drafts): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const field of fields) {
    const draft = drafts[field.key];
    if (draft === undefined) continue;
    const next = wireValueOf(field, draft);
    if (next !== (saved[field.key] ?? null)) changes[field.key] = next;
  }
  return changes;
}

/** How the saved value reads next to the input: the value, or "default" when unset. */
export function describeSaved(field: SettingField, saved: unknown): string {
  if (saved === undefined || saved === null) return 'default';
  if (field.kind === 'boolean') return saved ? 'on' : 'off';
  return String(saved);
}

/**
 * A restart-required setting whose saved value differs from the one the page opened with: the
 * running host still uses the old one. Comparing with the opening value (not "was saved") lets the
 * note go away when a person puts the old value back.
 */
export function appliesAfterRestart(
  key: SettingKey,
  opened: Settings,
  saved: Settings,
  restartRequired: readonly string[],
): boolean {
  return restartRequired.includes(key) && opened[key] !== saved[key];
}

/** A copy of the record without the given keys. */
export function without<T extends Partial<Record<SettingKey, unknown>>>(record: T, keys: readonly SettingKey[]): T {
  const next = { ...record };
  for (const k of keys) delete next[k];
  return next;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Splits the host's refusal ("Invalid settings: adbPort: Too big…; otlpEndpoint: Invalid URL")
 * into one message per named field. The transport passes on only the message, not the HTTP body's
 * `fields`, so the field names are read from the text; `fields`, when an error carries them, adds
 * any named field the text did not split out. Unmatched text is left for a page-level message.
 */
export function fieldErrorsFrom(
  message: string,
  keys: readonly SettingKey[],
  fields: readonly string[] = [],
): FieldErrors {
  const errors: FieldErrors = {};
  if (keys.length) {
    const pattern = new RegExp(`(?:^|: |; )(${keys.map(escapeRegExp).join('|')}): `, 'g');
    const hits = [...message.matchAll(pattern)];
    hits.forEach((hit, i) => {
      const key = hit[1] as SettingKey;
      const start = (hit.index ?? 0) + hit[0].length;
      const end = hits[i + 1]?.index ?? message.length;
      const text = message.slice(start, end).trim();
      errors[key] = errors[key] ? `${errors[key]}; ${text}` : text;
    });
  }
  for (const f of fields)
    if ((keys as readonly string[]).includes(f) && !errors[f as SettingKey]) errors[f as SettingKey] = message;
  return errors;
}
