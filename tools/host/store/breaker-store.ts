/** Every circuit-breaker transition, kept for the timelines the UI draws. */
import type { Db } from './database';

export interface TransitionRecord {
  toolId: string;
  from: string;
  to: string;
  at: number;
  cause: string;
}

export class BreakerStore {
  private readonly insertStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      'INSERT INTO breaker_transitions (tool_id, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?)',
    );
  }

  append(t: TransitionRecord): void {
    this.insertStmt.run(t.toolId, t.from, t.to, t.at, t.cause);
  }

  timeline(toolId: string, limit = 200): TransitionRecord[] {
    const rows = this.db
      .prepare(
        'SELECT tool_id, from_state, to_state, at, cause FROM breaker_transitions ' +
          'WHERE tool_id = ? ORDER BY id DESC LIMIT ?',
      )
      .all(toolId, limit) as Array<{
      tool_id: string;
      from_state: string;
      to_state: string;
      at: number;
      cause: string;
    }>;
    return rows
      .reverse()
      .map((r) => ({ toolId: r.tool_id, from: r.from_state, to: r.to_state, at: r.at, cause: r.cause }));
  }

  toolsWithTransitions(): string[] {
    return (
      this.db.prepare('SELECT DISTINCT tool_id FROM breaker_transitions ORDER BY tool_id').all() as Array<{
        tool_id: string;
      }>
    ).map((r) => r.tool_id);
  }
}
