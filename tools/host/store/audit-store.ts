/** The approval audit log: who decided what about which call, what it covered, and when. Append only. */
import type { AuditedDecision } from '../../core/pipeline/approval-gate';
import type { Db } from './database';

export interface AuditRecord {
  at: number;
  callId: string;
  sessionId: string;
  toolId: string;
  argsDigest: string;
  /** `cancelled` is what older versions wrote for a caller that left; newer ones write `withdrawn`. */
  decision: AuditedDecision | 'cancelled';
  reason?: string;
  decider?: string;
  /** What an approval covers ("this call only", "app_uninstall on device X, for the rest of …"). */
  scope?: string;
  /** The approval rule that decided. */
  rule?: string;
  waitedMs?: number;
}

export class AuditStore {
  private readonly insertStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO approval_audit (at, call_id, session_id, tool_id, args_digest, decision, reason, decider, scope,
         rule, waited_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  append(entry: AuditRecord): number {
    const e = entry;
    return Number(
      this.insertStmt.run(
        e.at,
        e.callId,
        e.sessionId,
        e.toolId,
        e.argsDigest,
        e.decision,
        e.reason ?? null,
        e.decider ?? null,
        e.scope ?? null,
        e.rule ?? null,
        e.waitedMs ?? null,
      ).lastInsertRowid,
    );
  }

  recent(limit = 200): Array<AuditRecord & { id: number }> {
    const rows = this.db.prepare('SELECT * FROM approval_audit ORDER BY id DESC LIMIT ?').all(limit) as Array<
      Record<string, unknown>
    >;
    return rows.map(fromRow);
  }

  /** The decisions about one call (its tool-level approval, its shell commands), oldest first. */
  forCall(callId: string): Array<AuditRecord & { id: number }> {
    const rows = this.db.prepare('SELECT * FROM approval_audit WHERE call_id = ? ORDER BY id').all(callId) as Array<
      Record<string, unknown>
    >;
    return rows.map(fromRow);
  }
}

function fromRow(r: Record<string, unknown>): AuditRecord & { id: number } {
  return {
    id: r.id as number,
    at: r.at as number,
    callId: r.call_id as string,
    sessionId: r.session_id as string,
    toolId: r.tool_id as string,
    argsDigest: r.args_digest as string,
    decision: r.decision as AuditRecord['decision'],
    ...(r.reason ? { reason: r.reason as string } : {}),
    ...(r.decider ? { decider: r.decider as string } : {}),
    ...(r.scope ? { scope: r.scope as string } : {}),
    ...(r.rule ? { rule: r.rule as string } : {}),
    ...(typeof r.waited_ms === 'number' ? { waitedMs: r.waited_ms } : {}),
  };
}
