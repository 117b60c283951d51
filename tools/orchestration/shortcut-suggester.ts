/**
 * ShortcutSuggester (docs/architecture.md#shortcuts): mines the traces for pairs of tools an agent
 * keeps calling one right after the other, successfully, and offers each frequent pair as a
 * shortcut. Per session, calls are ordered by start; only a call's final attempt counts (a retried
 * call is one call); a failed call breaks the chain. Composite tools (batches, shortcuts) are left
 * out — their inner steps are traced as calls of their own. Each suggestion carries a draft
 * definition that passes validation as it is, so the UI can define it with one click.
 */
import type { TraceSpan } from '../core/trace-span';
import type { ShortcutDefinition, ShortcutParam, ShortcutParamType } from './shortcut-definition';
import { isCompositeTool } from './shortcut-validation';

export const MIN_PAIR_COUNT = 3;

export interface ShortcutSuggestion {
  tools: [string, string];
  count: number;
  draft: ShortcutDefinition;
}

export interface SuggestOptions {
  /** Already defined shortcuts: a pair one of them contains is not suggested again. */
  defined?: readonly ShortcutDefinition[];
  minCount?: number;
  limit?: number;
}

function isExcluded(toolId: string): boolean {
  return isCompositeTool(toolId) || toolId === 'shortcut_list';
}

/** One span per call: its final attempt. */
function finalAttempts(spans: readonly TraceSpan[]): TraceSpan[] {
  const byCall = new Map<string, TraceSpan>();
  for (const s of spans) {
    const seen = byCall.get(s.callId);
    if (!seen || s.attempt > seen.attempt) byCall.set(s.callId, s);
  }
  return [...byCall.values()];
}

/** The first attempt started the call; order calls by that, not by the retry's start. */
function callStarts(spans: readonly TraceSpan[]): Map<string, number> {
  const starts = new Map<string, number>();
  for (const s of spans) starts.set(s.callId, Math.min(starts.get(s.callId) ?? Infinity, s.startedAt));
  return starts;
}

function pairKey(a: string, b: string): string {
  return `${a}\u0000${b}`;
}

function coveredPairs(defined: readonly ShortcutDefinition[]): Set<string> {
  const covered = new Set<string>();
  for (const def of defined) {
    for (let i = 0; i + 1 < def.steps.length; i++)
      covered.add(pairKey(def.steps[i]?.tool ?? '', def.steps[i + 1]?.tool ?? ''));
  }
  return covered;
}

export function suggestShortcuts(spans: readonly TraceSpan[], options: SuggestOptions = {}): ShortcutSuggestion[] {
  const minCount = options.minCount ?? MIN_PAIR_COUNT;
  const covered = coveredPairs(options.defined ?? []);
  const starts = callStarts(spans);
  const sessions = new Map<string, TraceSpan[]>();
  for (const span of finalAttempts(spans)) {
    if (isExcluded(span.toolId)) continue;
    const list = sessions.get(span.sessionId) ?? [];
    list.push(span);
    sessions.set(span.sessionId, list);
  }
  const counts = new Map<string, { tools: [string, string]; count: number; latest: [TraceSpan, TraceSpan] }>();
  for (const calls of sessions.values()) {
    calls.sort((x, y) => (starts.get(x.callId) ?? 0) - (starts.get(y.callId) ?? 0));
    for (let i = 0; i + 1 < calls.length; i++) {
      const a = calls[i];
      const b = calls[i + 1];
      if (!a || !b || a.outcome !== 'success' || b.outcome !== 'success') continue;
      const key = pairKey(a.toolId, b.toolId);
      if (covered.has(key)) continue;
      const entry = counts.get(key) ?? { tools: [a.toolId, b.toolId], count: 0, latest: [a, b] };
      entry.count++;
      if (a.startedAt >= entry.latest[0].startedAt) entry.latest = [a, b];
      counts.set(key, entry);
    }
  }
  const suggestions = [...counts.values()]
    .filter((e) => e.count >= minCount)
    .sort((x, y) => y.count - x.count || x.tools.join().localeCompare(y.tools.join()))
    .map((e) => ({ tools: e.tools, count: e.count, draft: draftFor(e.latest, e.count) }));
  return options.limit === undefined ? suggestions : suggestions.slice(0, options.limit);
}

const PARAM_KINDS: Record<string, ShortcutParamType> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
};

/**
 * A draft from the latest occurrence: the traces keep only the shape of the arguments (field
 * names and kinds, never values), so each scalar field becomes a parameter; fields holding
 * objects or arrays cannot be parameters and are left for the person to fill in.
 */
function draftFor(pair: [TraceSpan, TraceSpan], count: number): ShortcutDefinition {
  const params: ShortcutParam[] = [];
  const taken = new Set<string>();
  const steps = pair.map((span, stepIndex) => {
    const args: Record<string, unknown> = {};
    for (const [field, digest] of Object.entries(span.argsDigest.fields)) {
      const type = PARAM_KINDS[digest.kind];
      if (!type) continue;
      const name = uniqueName(identifier(field), stepIndex, taken);
      params.push({ name, type, description: `${field} for ${span.toolId}` });
      args[field] = `{${name}}`;
    }
    return { tool: span.toolId, args };
  });
  const [a, b] = pair;
  return {
    id: `shortcut.${slug(a.toolId)}_then_${slug(b.toolId)}`.slice(0, 72),
    description: `Calls ${a.toolId}, then ${b.toolId} (seen ${count} times in a row).`,
    params,
    steps,
  };
}

function identifier(field: string): string {
  const cleaned = field.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `p_${cleaned}`;
}

function uniqueName(base: string, stepIndex: number, taken: Set<string>): string {
  let name = taken.has(base) ? `${base}_${stepIndex}` : base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${stepIndex}_${n}`;
  taken.add(name);
  return name;
}

function slug(toolId: string): string {
  return toolId.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}
