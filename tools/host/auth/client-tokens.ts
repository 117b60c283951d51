/**
 * Who an MCP request comes from. Each client a person connects gets its own token, named for it,
 * kept as a SHA-256 digest (a token is 32 random bytes, so a plain digest cannot be reversed) and
 * revocable at once. The data dir's token (or TOOLGATE_TOKEN) is the client named "default", so
 * configs written before per-client tokens keep working; it cannot be revoked from the UI because
 * the stdio bridge reads it. These tokens call tools at /mcp and nothing else.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Disposable, Emitter } from '../../core/disposable';
import type { ClientTokenStore } from '../store/client-token-store';
import { tokenMatches } from '../token';
import { tokenHint } from '../http/host-proof';

export interface ClientIdentity {
  id: string;
  name: string;
}

export interface ClientTokenInfo extends ClientIdentity {
  createdAt: number;
  hint: string;
  isDefault: boolean;
}

export const DEFAULT_CLIENT: ClientIdentity = { id: 'default', name: 'default' };

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');
const hintOf = (token: string): string => token.slice(-4);

export class ClientTokens {
  private readonly byHash = new Map<string, ClientTokenInfo>();
  private readonly revoked = new Emitter<ClientIdentity>();
  private readonly defaultInfo: ClientTokenInfo;

  constructor(
    private readonly store: ClientTokenStore,
    private readonly defaultToken: string,
    private readonly now: () => number = Date.now,
    startedAt = now(),
  ) {
    this.defaultInfo = { ...DEFAULT_CLIENT, createdAt: startedAt, hint: hintOf(defaultToken), isDefault: true };
    for (const row of store.active())
      this.byHash.set(row.tokenHash, {
        id: row.id,
        name: row.name,
        createdAt: row.createdAt,
        hint: row.hint,
        isDefault: false,
      });
  }

  /** The client a bearer token belongs to; undefined for a wrong or revoked one. */
  identify(bearer: string | undefined): ClientIdentity | undefined {
    if (!bearer) return undefined;
    if (tokenMatches(this.defaultToken, bearer)) return DEFAULT_CLIENT;
    const info = this.byHash.get(digest(bearer));
    return info ? { id: info.id, name: info.name } : undefined;
  }

  /** The digest of the live token a host-proof hint names (http/host-proof.ts), if any. */
  digestForHint(hint: string): string | undefined {
    for (const tokenHash of [digest(this.defaultToken), ...this.byHash.keys()])
      if (tokenHint(tokenHash) === hint) return tokenHash;
    return undefined;
  }

  list(): ClientTokenInfo[] {
    return [this.defaultInfo, ...this.byHash.values()];
  }

  /** A new token for a client; the token itself is returned this once and never stored. */
  create(name: string): { client: ClientTokenInfo; token: string } {
    const token = `tg_${randomBytes(32).toString('base64url')}`;
    const client: ClientTokenInfo = {
      id: randomBytes(6).toString('hex'),
      name,
      createdAt: this.now(),
      hint: hintOf(token),
      isDefault: false,
    };
    const tokenHash = digest(token);
    this.store.insert({ id: client.id, name, tokenHash, hint: client.hint, createdAt: client.createdAt });
    this.byHash.set(tokenHash, client);
    return { client, token };
  }

  /** Revokes a token: every later request with it is a 401, and listeners close its sessions. */
  revoke(id: string): boolean {
    const entry = [...this.byHash.entries()].find(([, info]) => info.id === id);
    if (!entry) return false;
    this.byHash.delete(entry[0]);
    this.store.revoke(id, this.now());
    this.revoked.emit({ id: entry[1].id, name: entry[1].name });
    return true;
  }

  onRevoked(listener: (client: ClientIdentity) => void): Disposable {
    return this.revoked.on(listener);
  }
}
