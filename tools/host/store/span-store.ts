/**
 * Durable trace spans with a retention limit: the newest `maxRows` are kept.
 *
 * Spans are written in group commits: buffered and flushed in one transaction every
 * `flushIntervalMs` (or at 500 spans, or before any read, or at close). A commit costs tens of
 * microseconds whatever it holds, which per call would dominate an MCP round trip; the price is
 * that a process killed outright loses at most the last interval's spans. Approval decisions and
 * shortcuts are committed one by one, at once.
 */
import type { TraceSpan } from '../../core/trace-span';
import { transaction } from '../../common/sqlite';
import type { Db } from './database';
import type { UsageSpan } from '../usage-report';

export interface SpanFilter {
  toolId?: string;
  outcome?: string;
  callId?: string;
  /** Spans of the calls a call started (its batch steps, its shortcut's steps). */
  parentCallId?: string;
  since?: number;
  until?: number;
  limit?: number;
}

interface SpanRow {
  span_id: string;
  call_id: string;
  parent_call_id: string | null;
  tool_id: string;
  session_id: string;
  requester_kind: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  outcome: TraceSpan['outcome'];
  error_code: TraceSpan['errorCode'] | null;
  error_slug: string | null;
  error_text: string | null;
  backoff_ms: number;
  args_digest: string;
  person_wait_ms: number | null;
  decided_by: TraceSpan['decidedBy'] | null;
}

function fromRow(r: SpanRow): TraceSpan {
  const span: TraceSpan = {
    spanId: r.span_id,
    callId: r.call_id,
    toolId: r.tool_id,
    sessionId: r.session_id,
    requesterKind: r.requester_kind,
    attempt: r.attempt,
    startedAt: r.started_at,
    durationMs: r.duration_ms,
    outcome: r.outcome,
    backoffMs: r.backoff_ms,
    argsDigest: JSON.parse(r.args_digest) as TraceSpan['argsDigest'],
  };
  if (r.parent_call_id) span.parentCallId = r.parent_call_id;
  if (r.error_code) span.errorCode = r.error_code;
  if (r.error_slug) span.errorSlug = r.error_slug;
  if (r.error_text) span.errorText = r.error_text;
  if (r.person_wait_ms) span.personWaitMs = r.person_wait_ms;
  if (r.decided_by) span.decidedBy = r.decided_by;
  return span;
}

export const SPAN_FLUSH_INTERVAL_MS = 20;
const MAX_BUFFERED = 500;

export class SpanStore {
  private readonly insertStmt;
  private inserted = 0;
  private buffer: TraceSpan[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly maxRows = 100_000,
    private readonly flushIntervalMs = SPAN_FLUSH_INTERVAL_MS,
  ) {
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO spans (span_id, call_id, parent_call_id, tool_id, session_id, requester_kind, attempt,
         started_at, duration_ms, outcome, error_code, error_slug, error_text, backoff_ms, args_digest, person_wait_ms,
         decided_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  insert(span: TraceSpan): void {
    this.buffer.push(span);
    if (this.buffer.length >= MAX_BUFFERED) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes every buffered span in one transaction. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    transaction(this.db, () => {
      for (const span of batch) this.writeOne(span);
    });
  }

  private writeOne(span: TraceSpan): void {
    this.insertStmt.run(
      span.spanId,
      span.callId,
      span.parentCallId ?? null,
      span.toolId,
      span.sessionId,
      span.requesterKind,
      span.attempt,
      span.startedAt,
      span.durationMs,
      span.outcome,
      span.errorCode ?? null,
      span.errorSlug ?? null,
      span.errorText ?? null,
      span.backoffMs,
      JSON.stringify(span.argsDigest),
      span.personWaitMs ?? null,
      span.decidedBy ?? null,
    );
    // Prune now and then rather than on every insert: retention is a bound, not an exact count.
    if (++this.inserted % 1000 === 0) this.prune();
  }

  prune(): number {
    const row = this.db
      .prepare('SELECT started_at FROM spans ORDER BY started_at DESC LIMIT 1 OFFSET ?')
      .get(this.maxRows) as { started_at: number } | undefined;
    if (!row) return 0;
    return Number(this.db.prepare('DELETE FROM spans WHERE started_at <= ?').run(row.started_at).changes);
  }

  query(filter: SpanFilter = {}): TraceSpan[] {
    this.flush();
    const where: string[] = [];
    const params: Record<string, string | number> = { limit: filter.limit ?? 500 };
    if (filter.toolId) {
      where.push('tool_id = @toolId');
      params.toolId = filter.toolId;
    }
    if (filter.outcome) {
      where.push('outcome = @outcome');
      params.outcome = filter.outcome;
    }
    if (filter.callId) {
      where.push('call_id = @callId');
      params.callId = filter.callId;
    }
    if (filter.parentCallId) {
      where.push('parent_call_id = @parentCallId');
      params.parentCallId = filter.parentCallId;
    }
    if (filter.since !== undefined) {
      where.push('started_at >= @since');
      params.since = filter.since;
    }
    if (filter.until !== undefined) {
      where.push('started_at <= @until');
      params.until = filter.until;
    }
    const filtered = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const sql = `SELECT * FROM spans ${filtered} ORDER BY started_at DESC, rowid DESC LIMIT @limit`;
    return (this.db.prepare(sql).all(params) as unknown as SpanRow[]).map(fromRow);
  }

  /** The newest spans as the usage report reads them: no argument digest to parse. */
  usageSpans(filter: { toolId?: string; limit: number }): UsageSpan[] {
    this.flush();
    const columns =
      'call_id AS callId, tool_id AS toolId, attempt, started_at AS startedAt, duration_ms AS durationMs, outcome, ' +
      'error_code AS errorCode, error_slug AS errorSlug, error_text AS errorText, decided_by AS decidedBy';
    const rows = filter.toolId
      ? this.db
          .prepare(`SELECT ${columns} FROM spans WHERE tool_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?`)
          .all(filter.toolId, filter.limit)
      : this.db.prepare(`SELECT ${columns} FROM spans ORDER BY started_at DESC, rowid DESC LIMIT ?`).all(filter.limit);
    return (rows as unknown as Array<UsageSpan & Record<string, unknown>>).map((r) => {
      const span: UsageSpan = {
        callId: r.callId,
        toolId: r.toolId,
        attempt: r.attempt,
        startedAt: r.startedAt,
        durationMs: r.durationMs,
        outcome: r.outcome,
      };
      if (r.errorCode) span.errorCode = r.errorCode;
      if (r.errorSlug) span.errorSlug = r.errorSlug;
      if (r.errorText) span.errorText = r.errorText;
      if (r.decidedBy) span.decidedBy = r.decidedBy;
      return span;
    });
  }

  count(): number {
    this.flush();
    return (this.db.prepare('SELECT COUNT(*) AS n FROM spans').get() as { n: number }).n;
  }
}

/**
 * The spans shortcut suggestions are mined from, oldest first: the durable history rather than the
 * in-memory ring, so the UI and the model's shortcut_list see the same suggestions.
 */
export function recentSpans(store: SpanStore, limit = 5000): TraceSpan[] {
  return store.query({ limit }).reverse();
}
