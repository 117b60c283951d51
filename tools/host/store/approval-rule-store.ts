/**
 * The person's approval rules (allow / ask / deny by tool and argument patterns), kept in SQLite
 * and held in memory for the approval gate, which reads them at every call. Only the contract's
 * methods change them, and those need the person's UI session: no tool call reaches this store.
 */
import type { ApprovalRule, ArgumentPattern, RuleEffect } from '../../core/pipeline/approval-rules';
import type { Db } from './database';

export interface StoredRule extends ApprovalRule {
  note?: string;
  createdAt: number;
}

export class ApprovalRuleStore {
  private cache: readonly StoredRule[] | undefined;

  constructor(private readonly db: Db) {}

  /** Every rule, oldest first; read from memory after the first call. */
  list(): readonly StoredRule[] {
    this.cache ??= (
      this.db.prepare('SELECT * FROM approval_rules ORDER BY id').all() as Array<Record<string, unknown>>
    ).map((r) => ({
      id: r.id as number,
      effect: r.effect as RuleEffect,
      tool: r.tool_pattern as string,
      args: JSON.parse(r.arg_patterns as string) as ArgumentPattern[],
      ...(r.note ? { note: r.note as string } : {}),
      createdAt: r.created_at as number,
    }));
    return this.cache;
  }

  add(rule: { effect: RuleEffect; tool: string; args: ArgumentPattern[]; note?: string }, at = Date.now()): StoredRule {
    const id = Number(
      this.db
        .prepare(
          'INSERT INTO approval_rules (effect, tool_pattern, arg_patterns, note, created_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(rule.effect, rule.tool, JSON.stringify(rule.args), rule.note ?? null, at).lastInsertRowid,
    );
    this.cache = undefined;
    return this.list().find((r) => r.id === id) as StoredRule;
  }

  remove(id: number): boolean {
    const removed = Number(this.db.prepare('DELETE FROM approval_rules WHERE id = ?').run(id).changes) > 0;
    this.cache = undefined;
    return removed;
  }
}
