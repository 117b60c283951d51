/**
 * The MCP client tokens a person created: name, digest of the token, when, and whether revoked;
 * and the toolsets each client (the default one too) was given.
 */
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

  /** The toolsets given to each client that has some, by client id. */
  toolsets(): Map<string, string[]> {
    const rows = this.db.prepare('SELECT client_id, toolsets FROM client_toolsets').all() as Array<{
      client_id: string;
      toolsets: string;
    }>;
    const out = new Map<string, string[]>();
    for (const row of rows) {
      const names = parseNames(row.toolsets);
      if (names) out.set(row.client_id, names);
    }
    return out;
  }

  setToolsets(clientId: string, toolsets: readonly string[], at: number): void {
    this.db
      .prepare(
        'INSERT INTO client_toolsets (client_id, toolsets, updated_at) VALUES (?, ?, ?) ' +
          'ON CONFLICT(client_id) DO UPDATE SET toolsets = excluded.toolsets, updated_at = excluded.updated_at',
      )
      .run(clientId, JSON.stringify(toolsets), at);
  }

  /** True when an active token was revoked now. */
  revoke(id: string, at: number): boolean {
    const result = this.db
      .prepare('UPDATE client_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(at, id);
    return Number(result.changes) > 0;
  }
}

/** A stored list, or undefined when the row is not a JSON array of strings (the client keeps the default). */
function parseNames(text: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}
