/** The MCP client tokens a person created: name, digest of the token, when, and whether revoked. */
import type { Db } from './database';

export interface ClientTokenRow {
  id: string;
  name: string;
  tokenHash: string;
  /** The token's last characters, so a person can tell which config holds which token. */
  hint: string;
  createdAt: number;
}

export class ClientTokenStore {
  constructor(private readonly db: Db) {}

  insert(row: ClientTokenRow): void {
    this.db
      .prepare('INSERT INTO client_tokens (id, name, token_hash, hint, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(row.id, row.name, row.tokenHash, row.hint, row.createdAt);
  }

  active(): ClientTokenRow[] {
    const rows = this.db
      .prepare('SELECT * FROM client_tokens WHERE revoked_at IS NULL ORDER BY created_at, id')
      .all() as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      id: r.id as string,
      name: r.name as string,
      tokenHash: r.token_hash as string,
      hint: r.hint as string,
      createdAt: r.created_at as number,
    }));
  }

  /** True when an active token was revoked now. */
  revoke(id: string, at: number): boolean {
    const result = this.db
      .prepare('UPDATE client_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(at, id);
    return Number(result.changes) > 0;
  }
}
