/**
 * One call's story, told from what the host keeps: its spans (with each failure's cleaned text),
 * the calls it started, the approval decisions about it, its tool's breakers around the time, and,
 * while the host still remembers the call, its arguments and the hint its caller read. The bug
 * report is the same story as one JSON document with host and tool versions and the environment
 * when the call arrived, and without any argument text: arguments are never in it, and telemetry
 * strings are cleaned of argument runs the way error texts are.
 */
import { createHash } from 'node:crypto';
import { classifyCall } from '../../shared/call-classes';
import type {
  AuditEntry,
  BreakerAtCall,
  BreakerTransition,
  CallDetail,
  CallReport,
  HostInfo,
  Span,
} from '../../shared/contract';
import { breakerKey, parseBreakerKey } from '../core/pipeline/breaker-key';
import type { CircuitBreakers } from '../core/pipeline/circuit-breakers';
import type { ToolRegistry } from '../core/registry';
import { ERROR_HINTS, type ToolErrorCode } from '../core/result';
import { cleanErrorText } from '../core/trace/error-text';
import type { TraceSpan } from '../core/trace-span';
import type { CallMemory, RememberedCall } from './call-memory';
import type { AuditStore } from './store/audit-store';
import type { BreakerStore, TransitionRecord } from './store/breaker-store';
import type { SpanStore } from './store/span-store';

export interface CallStoryDeps {
  spans: SpanStore;
  audit: AuditStore;
  breakerStore: BreakerStore;
  breakers: CircuitBreakers | undefined;
  registry: ToolRegistry;
  memory: CallMemory;
  info: () => HostInfo;
  now?: () => number;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** The breaker hears how a call ended right after its last span: its state "after it" includes that. */
const OWN_OUTCOME_MS = 50;
const TARGET_IN_REFUSAL = /for target ([0-9a-f]{8})\b/;

type State = BreakerTransition['from'];

function upper(state: string): State {
  const s = state.toUpperCase();
  return s === 'OPEN' || s === 'HALF_OPEN' ? s : 'CLOSED';
}

/** The state a breaker was in at `at`, from its transitions (oldest first). */
export function stateAt(transitions: readonly Pick<BreakerTransition, 'from' | 'to' | 'at'>[], at: number): State {
  let state: State | undefined;
  for (const t of transitions) {
    if (t.at > at) return state ?? t.from;
    state = t.to;
  }
  return state ?? 'CLOSED';
}

export class CallStories {
  private readonly now: () => number;

  constructor(private readonly deps: CallStoryDeps) {
    this.now = deps.now ?? Date.now;
  }

  detail(callId: string): CallDetail {
    const spans = this.spansOf(callId);
    const last = spans[spans.length - 1];
    const remembered = this.deps.memory.get(callId);
    const detail: CallDetail = {
      callId,
      spans: spans as Span[],
      nested: this.deps.spans.query({ parentCallId: callId, limit: 2_000 }).reverse() as Span[],
      breakers: last ? this.breakersAround(spans, remembered) : [],
      approvals: this.deps.audit.forCall(callId) as AuditEntry[],
    };
    if (last) detail.callClass = classifyCall(last);
    if (last?.errorCode) {
      const said = remembered?.ended?.ok === false ? remembered.ended.hint : undefined;
      detail.hint = said
        ? { text: said, source: 'call' }
        : { text: ERROR_HINTS[last.errorCode as ToolErrorCode], source: 'default' };
    }
    if (remembered) {
      detail.memory = {
        args: remembered.args,
        ...(remembered.argsDropped ? { argsDropped: remembered.argsDropped } : {}),
        sessionId: remembered.sessionId,
        requester: remembered.requester,
        at: remembered.at,
        ...(remembered.replayOf ? { replayOf: remembered.replayOf } : {}),
        replays: this.deps.memory.replaysOf(callId),
      };
    }
    return detail;
  }

  report(callId: string): CallReport {
    const spans = this.spansOf(callId);
    const first = spans[0];
    const last = spans[spans.length - 1];
    const remembered = this.deps.memory.get(callId);
    const toolId = first?.toolId ?? remembered?.toolId ?? 'unknown';
    const info = this.deps.info();
    return {
      format: 'toolgate-call-report/1',
      exportedAt: this.now(),
      note:
        'Argument values are not part of this report: spans carry a digest of them (kinds and lengths), error ' +
        'texts and telemetry have every run of argument text replaced by a placeholder such as ‹url›.',
      host: {
        version: info.version,
        mode: info.mode,
        startedAt: info.startedAt,
        node: process.versions.node,
        platform: process.platform,
        arch: process.arch,
        ...(process.versions.electron ? { electron: process.versions.electron } : {}),
        ...(playwrightVersion() ? { playwright: playwrightVersion() } : {}),
      },
      tool: this.toolFacts(toolId),
      call: {
        callId,
        toolId,
        ...(first ? { sessionId: first.sessionId, requesterKind: first.requesterKind } : {}),
        ...(first?.parentCallId ? { parentCallId: first.parentCallId } : {}),
        ...(first ? { startedAt: first.startedAt } : {}),
        ...(last ? { endedAt: last.startedAt + last.durationMs } : {}),
        attempts: spans.filter((s) => s.attempt >= 1).length,
        ...(last ? { callClass: classifyCall(last) } : {}),
        ...(remembered?.replayOf ? { replayOf: remembered.replayOf } : {}),
      },
      spans: spans as Span[],
      nested: this.deps.spans.query({ parentCallId: callId, limit: 2_000 }).reverse() as Span[],
      breakers: last ? this.breakersAround(spans, remembered) : [],
      approvals: this.deps.audit.forCall(callId) as AuditEntry[],
      environment: environmentOf(remembered, this.deps.registry),
    };
  }

  private spansOf(callId: string): TraceSpan[] {
    return this.deps.spans
      .query({ callId, limit: 100 })
      .sort((a, b) => a.attempt - b.attempt || a.startedAt - b.startedAt);
  }

  private toolFacts(toolId: string): CallReport['tool'] {
    const tool = this.deps.registry.get(toolId);
    if (!tool) return { id: toolId, registered: false };
    return {
      id: tool.id,
      registered: true,
      title: tool.title,
      category: tool.metadata.category,
      risk: tool.metadata.risk,
      annotations: tool.metadata.annotations,
      selfGated: tool.selfGated,
      ...(tool.runPolicy ? { runPolicy: tool.runPolicy } : {}),
      schemaDigest: createHash('sha256').update(JSON.stringify(tool.inputSchema)).digest('hex').slice(0, 12),
    };
  }

  /**
   * The call's breaker when its target is known (from its remembered arguments or a refusal's text), else every breaker
   * of its tool.
   */
  private breakersAround(spans: readonly TraceSpan[], remembered: RememberedCall | undefined): BreakerAtCall[] {
    const first = spans[0]!;
    const last = spans[spans.length - 1]!;
    const start = first.startedAt;
    const end = last.startedAt + last.durationMs;
    const exact = this.exactKey(first.toolId, spans, remembered);
    const keys = exact !== undefined ? [exact] : this.keysOf(first.toolId);
    return keys.map((key) => {
      const timeline = this.deps.breakerStore.timeline(key, 1_000).map(recordView);
      const transitions = timeline.filter((t) => t.at >= start - HOUR && t.at <= end + MINUTE);
      const { target } = parseBreakerKey(key);
      return {
        key,
        ...(target !== undefined ? { target } : {}),
        exact: exact !== undefined,
        atStart: stateAt(timeline, start),
        atEnd: stateAt(timeline, end + OWN_OUTCOME_MS),
        transitions,
      };
    });
  }

  private exactKey(
    toolId: string,
    spans: readonly TraceSpan[],
    remembered: RememberedCall | undefined,
  ): string | undefined {
    const tool = this.deps.registry.get(toolId);
    if (tool && tool.breakerScope === undefined) return toolId;
    for (const s of spans) {
      const target = s.errorCode === 'CIRCUIT_OPEN' ? TARGET_IN_REFUSAL.exec(s.errorText ?? '')?.[1] : undefined;
      if (target) return `${toolId}@${target}`;
    }
    if (!tool?.breakerScope || remembered?.args === undefined) return undefined;
    const validated = tool.validate(remembered.args);
    if (!validated.ok) return undefined;
    try {
      return breakerKey(toolId, tool.breakerScope(validated.value));
    } catch {
      return undefined;
    }
  }

  private keysOf(toolId: string): string[] {
    const mine = (k: string) => parseBreakerKey(k).toolId === toolId;
    const keys = new Set<string>(this.deps.breakerStore.toolsWithTransitions().filter(mine));
    for (const v of this.deps.breakers?.states() ?? []) if (mine(v.toolId)) keys.add(v.toolId);
    return [...keys].sort();
  }
}

function recordView(t: TransitionRecord): BreakerTransition {
  return { toolId: t.toolId, from: upper(t.from), to: upper(t.to), at: t.at, cause: t.cause };
}

let playwright: string | null | undefined;
function playwrightVersion(): string | undefined {
  if (playwright === undefined) {
    try {
      playwright = (require('playwright-core/package.json') as { version?: string }).version ?? null;
    } catch {
      playwright = null;
    }
  }
  return playwright ?? undefined;
}

/** The telemetry when the call arrived, each string cleaned of the call's argument text. */
function environmentOf(remembered: RememberedCall | undefined, registry: ToolRegistry): CallReport['environment'] {
  if (!remembered)
    return {
      readings: [],
      note:
        'Not known: the host keeps the environment of a call in memory only, and no longer remembers this one ' +
        '(it restarted, or the call is older than the calls it keeps).',
    };
  const properties = (registry.get(remembered.toolId)?.inputSchema as { properties?: object } | undefined)?.properties;
  const fields = new Set(properties ? Object.keys(properties) : []);
  const known = remembered.args !== undefined;
  const readings = remembered.environment.map((r) => ({
    key: r.key,
    value:
      typeof r.value !== 'string'
        ? r.value
        : known
          ? cleanErrorText(r.value, remembered.args, { fields })
          : '‹not kept: the arguments were too large to check against›',
    ageMs: r.ageMs,
  }));
  return { recordedAt: remembered.at, readings };
}
