/**
 * ShortcutSuggester (docs/architecture.md#shortcuts): mines the traces for sequences of tools an
 * agent keeps calling in the same order, and offers each as a shortcut with its evidence.
 *
 * Per session, calls are ordered by start; only a call's final attempt counts (a retried call is
 * one call); a pause of more than MAX_GAP_MS starts a new run. A sequence is 2 to MAX_STEPS calls
 * in a row; it recurs when all of its calls succeeded, counted without overlaps within a run.
 * Left out: composite tools (batches, shortcuts, whose inner steps are traced as calls of their
 * own), the steps of defined shortcuts (they are a shortcut already), replays, and sequences a
 * defined shortcut contains. A sequence with a tool right after itself (a self-pair) is a loop,
 * not a workflow, and so is a unit repeated (`a b a b`); of a cycle's rotations (`a b`, `b a`) only
 * the most frequent is kept, since the others are its seams; and a sequence that only ever occurs
 * inside a longer one that recurs as often is the longer one's part, not a workflow of its own.
 *
 * Each suggestion says how often it recurred, when it was last seen and how often the calls in
 * that order all succeeded, and carries a draft that validates as it is. The traces keep only the
 * shape of arguments, so each scalar field becomes a parameter named after the argument it fills;
 * a field several steps share (`serial`) is one parameter when their values agree.
 */
import type { TraceSpan } from '../core/trace-span';
import type { ShortcutDefinition, ShortcutParam, ShortcutParamType } from './shortcut-definition';
import { isCompositeTool } from './shortcut-validation';
import { MAX_STEPS } from './step-runner';

export const MIN_COUNT = 3;
/** @deprecated the name of MIN_COUNT from when only pairs were mined. */
export const MIN_PAIR_COUNT = MIN_COUNT;
/** Calls further apart than this belong to different runs of work. */
export const MAX_GAP_MS = 10 * 60_000;

export interface SuggestionEvidence {
  /** Times all its calls succeeded in this order (without overlaps). */
  count: number;
  /** Times its tools were called in this order, whatever the outcome. */
  seen: number;
  /** count / seen. */
  successRate: number;
  /** Start of the latest successful occurrence. */
  lastSeen: number;
  sessions: number;
}

export interface ShortcutSuggestion {
  tools: string[];
  count: number;
  evidence: SuggestionEvidence;
  draft: ShortcutDefinition;
}

export interface SuggestOptions {
  /** Already defined shortcuts: a sequence one of them contains is not suggested again. */
  defined?: readonly ShortcutDefinition[];
  minCount?: number;
  limit?: number;
  /** Longest sequence mined; default MAX_STEPS. */
  maxLength?: number;
  /**
   * Whether two calls gave a field the same value, when someone remembers (the host keeps recent
   * calls' arguments in memory); undefined when not known.
   */
  sameArgument?: (callA: string, callB: string, field: string) => boolean | undefined;
}

const EXCLUDED_REQUESTERS: ReadonlySet<string> = new Set(['shortcut', 'replay']);

function isExcluded(span: TraceSpan): boolean {
  return isCompositeTool(span.toolId) || span.toolId === 'shortcut_list' || EXCLUDED_REQUESTERS.has(span.requesterKind);
}

interface Call {
  span: TraceSpan;
  start: number;
}

/** One entry per call: its final attempt, started when its first attempt started. */
function callsOf(spans: readonly TraceSpan[]): Call[] {
  const byCall = new Map<string, Call>();
  for (const s of spans) {
    const seen = byCall.get(s.callId);
    if (!seen) byCall.set(s.callId, { span: s, start: s.startedAt });
    else {
      seen.start = Math.min(seen.start, s.startedAt);
      if (s.attempt > seen.span.attempt) seen.span = s;
    }
  }
  return [...byCall.values()];
}

/** Per session, its calls in order, cut into runs at long pauses. */
function runsOf(spans: readonly TraceSpan[]): Call[][] {
  const sessions = new Map<string, Call[]>();
  for (const call of callsOf(spans)) {
    if (isExcluded(call.span)) continue;
    const list = sessions.get(call.span.sessionId) ?? [];
    list.push(call);
    sessions.set(call.span.sessionId, list);
  }
  const runs: Call[][] = [];
  for (const calls of sessions.values()) {
    calls.sort((a, b) => a.start - b.start);
    let run: Call[] = [];
    for (const call of calls) {
      const previous = run[run.length - 1];
      if (previous && call.start - previous.start > MAX_GAP_MS) {
        runs.push(run);
        run = [];
      }
      run.push(call);
    }
    if (run.length) runs.push(run);
  }
  return runs;
}

interface Tally {
  tools: string[];
  count: number;
  seen: number;
  sessions: Set<string>;
  first: number;
  latest: Call[];
}

const KEY_SEPARATOR = '\u0000';

/** `a b a b`, `a b c a b c`: a unit repeated at least twice. */
export function isRepetition(tools: readonly string[]): boolean {
  for (let p = 1; p * 2 <= tools.length; p++) {
    let periodic = true;
    for (let i = p; i < tools.length && periodic; i++) periodic = tools[i] === tools[i - p];
    if (periodic) return true;
  }
  return false;
}

function containsExactly(outer: readonly string[], inner: readonly string[]): boolean {
  for (let i = 0; i + inner.length <= outer.length; i++) {
    let match = true;
    for (let j = 0; j < inner.length && match; j++) match = outer[i + j] === inner[j];
    if (match) return true;
  }
  return false;
}

function isRotation(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.join(KEY_SEPARATOR) !== b.join(KEY_SEPARATOR) && containsExactly([...a, ...a], b);
}

function tally(runs: readonly Call[][], maxLength: number): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const run of runs) {
    // Per run, where the last counted occurrence of each sequence ended: occurrences never overlap.
    const countedUntil = new Map<string, number>();
    const seenUntil = new Map<string, number>();
    for (let i = 0; i < run.length; i++) {
      let key = run[i]!.span.toolId;
      let allOk = run[i]!.span.outcome === 'success';
      for (let length = 2; length <= maxLength && i + length <= run.length; length++) {
        const next = run[i + length - 1]!;
        // A tool right after itself is a loop, not a workflow; every longer window holds the same self-pair.
        if (next.span.toolId === run[i + length - 2]!.span.toolId) break;
        key += KEY_SEPARATOR + next.span.toolId;
        allOk &&= next.span.outcome === 'success';
        let t = tallies.get(key);
        if (!t) {
          const tools = run.slice(i, i + length).map((c) => c.span.toolId);
          tallies.set(key, (t = { tools, count: 0, seen: 0, sessions: new Set(), first: run[i]!.start, latest: [] }));
        }
        if ((seenUntil.get(key) ?? 0) <= i) {
          t.seen++;
          seenUntil.set(key, i + length);
        }
        if (allOk && (countedUntil.get(key) ?? 0) <= i) {
          t.count++;
          countedUntil.set(key, i + length);
          t.sessions.add(run[i]!.span.sessionId);
          if (!t.latest.length || run[i]!.start >= t.latest[0]!.start) t.latest = run.slice(i, i + length);
        }
      }
    }
  }
  return tallies;
}

export function suggestShortcuts(spans: readonly TraceSpan[], options: SuggestOptions = {}): ShortcutSuggestion[] {
  const minCount = options.minCount ?? MIN_COUNT;
  const maxLength = Math.max(2, Math.min(options.maxLength ?? MAX_STEPS, MAX_STEPS));
  const frequent = [...tally(runsOf(spans), maxLength).values()].filter((t) => t.count >= minCount);
  const defined = (options.defined ?? []).map((d) => d.steps.map((s) => s.tool));
  const kept = frequent.filter(
    (t) =>
      !isRepetition(t.tools) &&
      !defined.some((steps) => containsExactly(steps, t.tools)) &&
      // Only ever part of a longer sequence recurring as often: that one is the workflow.
      !frequent.some(
        (o) => o.tools.length > t.tools.length && o.count >= t.count && containsExactly(o.tools, t.tools),
      ) &&
      // A seam of a cycle: a rotation that recurs more often (or as often, and was seen first) is the cycle.
      !frequent.some(
        (o) => isRotation(o.tools, t.tools) && (o.count > t.count || (o.count === t.count && o.first < t.first)),
      ),
  );
  kept.sort(
    (x, y) =>
      y.count - x.count ||
      y.tools.length - x.tools.length ||
      x.first - y.first ||
      x.tools.join().localeCompare(y.tools.join()),
  );
  const limited = options.limit === undefined ? kept : kept.slice(0, options.limit);
  const ids = new Set<string>();
  return limited.map((t) => ({
    tools: t.tools,
    count: t.count,
    evidence: {
      count: t.count,
      seen: t.seen,
      successRate: t.seen ? t.count / t.seen : 0,
      lastSeen: t.latest[0]?.start ?? 0,
      sessions: t.sessions.size,
    },
    draft: draftFor(t, ids, options.sameArgument),
  }));
}

const PARAM_KINDS: Record<string, ShortcutParamType> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
};

interface Slot {
  step: number;
  field: string;
  type: ShortcutParamType;
  call: Call;
}

/**
 * A draft from the latest occurrence. Each scalar field becomes a parameter named after the
 * argument it fills; fields holding objects or arrays cannot be parameters and are left for the
 * person to fill in. A field that several steps fill with the same kind of value is one parameter
 * when their values agreed (or, not remembered, had the same length); otherwise each later one
 * is named after its step.
 */
function draftFor(t: Tally, ids: Set<string>, sameArgument: SuggestOptions['sameArgument']): ShortcutDefinition {
  const params: ShortcutParam[] = [];
  const taken = new Map<string, Slot>();
  const steps = t.latest.map((call, step) => {
    const args: Record<string, unknown> = {};
    for (const [field, digest] of Object.entries(call.span.argsDigest.fields)) {
      const type = PARAM_KINDS[digest.kind];
      if (!type) continue;
      const base = identifier(field);
      const earlier = taken.get(base);
      if (earlier && earlier.type === type && sameValue(earlier, { step, field, type, call }, sameArgument)) {
        const param = params.find((p) => p.name === base);
        if (param && !param.description.includes(call.span.toolId))
          param.description = `${param.description} and ${call.span.toolId}`;
        args[field] = `{${base}}`;
        continue;
      }
      const name = earlier ? uniqueName(`${base}_${slug(call.span.toolId)}`, step, taken) : base;
      taken.set(name, { step, field, type, call });
      params.push({ name, type, description: `${field} for ${call.span.toolId}` });
      args[field] = `{${name}}`;
    }
    return { tool: call.span.toolId, args };
  });
  const tools = t.tools;
  const id = uniqueId(
    tools.length === 2
      ? `shortcut.${slug(tools[0]!)}_then_${slug(tools[1]!)}`
      : `shortcut.${slug(tools[0]!)}_to_${slug(tools[tools.length - 1]!)}_${tools.length}_steps`,
    ids,
  );
  return {
    id,
    description: `Calls ${tools.join(', then ')} (seen ${t.count} times in this order).`,
    params,
    steps,
  };
}

function sameValue(a: Slot, b: Slot, sameArgument: SuggestOptions['sameArgument']): boolean {
  if (a.field !== b.field) return false;
  const remembered = sameArgument?.(a.call.span.callId, b.call.span.callId, a.field);
  if (remembered !== undefined) return remembered;
  const x = a.call.span.argsDigest.fields[a.field];
  const y = b.call.span.argsDigest.fields[b.field];
  return x !== undefined && y !== undefined && x.length === y.length;
}

function identifier(field: string): string {
  const cleaned = field.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `p_${cleaned}`;
}

function uniqueName(base: string, step: number, taken: ReadonlyMap<string, Slot>): string {
  let name = taken.has(base) ? `${base}_step${step + 1}` : base;
  for (let n = 2; taken.has(name); n++) name = `${base}_step${step + 1}_${n}`;
  return name;
}

/** A valid shortcut id (`shortcut.` then a letter, at most 63 of [a-z0-9_]), unique among the drafts. */
function uniqueId(wanted: string, ids: Set<string>): string {
  const tail = wanted.slice('shortcut.'.length);
  const base = `shortcut.${(/^[a-z]/.test(tail) ? tail : `x_${tail}`).slice(0, 60)}`;
  let id = base;
  for (let n = 2; ids.has(id); n++) id = `${base.slice(0, 60)}_${n}`;
  ids.add(id);
  return id;
}

function slug(toolId: string): string {
  return toolId.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}
