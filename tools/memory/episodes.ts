/**
 * Episodes: one agent session's story told from the traces. Per MCP session: the client, when it
 * started and ended, the tools called in order with their outcomes, the approvals asked and how
 * they were answered, and the memories written in it (ids and roles). Built from spans and the
 * approval audit only, which hold no argument text, so an episode holds none either.
 */
import type { TraceSpan } from '../core/trace-span';
import type { MemoryRole } from './memory-store';

export interface ApprovalRecord {
  at: number;
  callId: string;
  sessionId: string;
  toolId: string;
  /** `allow`: a person's approval rule let it run; `withdrawn` (older: `cancelled`): its caller left. */
  decision:
    | 'approve_once'
    | 'approve_session'
    | 'approve_target'
    | 'allow'
    | 'deny'
    | 'timeout'
    | 'withdrawn'
    | 'cancelled';
  decider?: string;
}

const APPROVED: ReadonlySet<ApprovalRecord['decision']> = new Set([
  'approve_once',
  'approve_session',
  'approve_target',
  'allow',
]);
const UNANSWERED: ReadonlySet<ApprovalRecord['decision']> = new Set(['timeout', 'withdrawn', 'cancelled']);

/** What episodes are read from: the host's stored spans and approval audit. */
export interface EpisodeSource {
  spans(): readonly TraceSpan[];
  approvals(): readonly ApprovalRecord[];
}

export interface EpisodeCall {
  tool: string;
  at: string;
  outcome: TraceSpan['outcome'];
  errorCode?: string;
  attempts: number;
  /** A step of a batch, shortcut or skill tool (it names its parent call). */
  nested: boolean;
}

export interface Episode {
  session: string;
  client: string;
  start: string;
  end: string;
  calls: number;
  tools: EpisodeCall[];
  moreCalls: number;
  outcomes: Record<TraceSpan['outcome'], number>;
  approvals: {
    asked: number;
    approved: number;
    denied: number;
    unanswered: number;
    items: Array<{ tool: string; decision: string; at: string }>;
  };
  memorized: Array<{ id: number; role: MemoryRole | null }>;
}

const MAX_LISTED_CALLS = 100;
const iso = (ms: number) => new Date(ms).toISOString();

/** Sessions of agents: MCP sessions are labelled `<client>#<n>`; the UI's is `ui`. */
function isAgentSession(calls: readonly TraceSpan[]): boolean {
  return calls.some((c) => c.requesterKind === 'mcp');
}

export function buildEpisodes(
  source: EpisodeSource,
  options: { since?: number; limit: number; memorized: (sessions: string[]) => Map<string, Episode['memorized']> },
): Episode[] {
  const finals = new Map<string, TraceSpan>();
  const firstStart = new Map<string, number>();
  for (const s of source.spans()) {
    const seen = finals.get(s.callId);
    if (!seen || s.attempt > seen.attempt) finals.set(s.callId, s);
    firstStart.set(s.callId, Math.min(firstStart.get(s.callId) ?? Infinity, s.startedAt));
  }
  const bySession = new Map<string, TraceSpan[]>();
  for (const s of finals.values()) {
    const list = bySession.get(s.sessionId) ?? [];
    list.push(s);
    bySession.set(s.sessionId, list);
  }
  const approvals = new Map<string, ApprovalRecord[]>();
  for (const a of source.approvals()) {
    const list = approvals.get(a.sessionId) ?? [];
    list.push(a);
    approvals.set(a.sessionId, list);
  }
  const sessions = [...bySession.entries()]
    .filter(([, calls]) => isAgentSession(calls))
    .map(([session, calls]) => {
      calls.sort((a, b) => (firstStart.get(a.callId) ?? 0) - (firstStart.get(b.callId) ?? 0));
      const start = Math.min(...calls.map((c) => firstStart.get(c.callId) ?? c.startedAt));
      const end = Math.max(...calls.map((c) => c.startedAt + c.durationMs));
      return { session, calls, start, end };
    })
    .filter((e) => options.since === undefined || e.end >= options.since)
    .sort((a, b) => b.end - a.end)
    .slice(0, options.limit);
  const memorized = options.memorized(sessions.map((s) => s.session));
  return sessions.map(({ session, calls, start, end }) => {
    const outcomes = { success: 0, error: 0, cancelled: 0 };
    for (const c of calls) outcomes[c.outcome]++;
    const asked = (approvals.get(session) ?? []).sort((a, b) => a.at - b.at);
    return {
      session,
      client: session.replace(/#\d+$/, ''),
      start: iso(start),
      end: iso(end),
      calls: calls.length,
      tools: calls.slice(0, MAX_LISTED_CALLS).map((c) => ({
        tool: c.toolId,
        at: iso(firstStart.get(c.callId) ?? c.startedAt),
        outcome: c.outcome,
        ...(c.errorCode ? { errorCode: c.errorCode } : {}),
        attempts: c.attempt,
        nested: c.parentCallId !== undefined,
      })),
      moreCalls: Math.max(0, calls.length - MAX_LISTED_CALLS),
      outcomes,
      approvals: {
        asked: asked.length,
        approved: asked.filter((a) => APPROVED.has(a.decision)).length,
        denied: asked.filter((a) => a.decision === 'deny').length,
        unanswered: asked.filter((a) => UNANSWERED.has(a.decision)).length,
        items: asked.slice(0, MAX_LISTED_CALLS).map((a) => ({ tool: a.toolId, decision: a.decision, at: iso(a.at) })),
      },
      memorized: memorized.get(session) ?? [],
    };
  });
}
