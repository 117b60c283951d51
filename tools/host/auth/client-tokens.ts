/**
 * Who an MCP request comes from. Each client a person connects gets its own token, named for it,
 * kept as a SHA-256 digest (a token is 32 random bytes, so a plain digest cannot be reversed) and
 * revocable at once. The data dir's token (or TOOLGATE_TOKEN) is the client named "default", so
 * configs written before per-client tokens keep working; it cannot be revoked from the UI because
 * the stdio bridge reads it. These tokens call tools at /mcp and nothing else, and only the tools
 * of the toolsets the person gave the client (the default profile unless they chose others).
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Disposable, Emitter } from '../../core/disposable';
import type { ClientTokenStore } from '../store/client-token-store';
import { tokenMatches } from '../token';
import { tokenHint } from '../http/host-proof';
import { uniqueNames } from '../../core/toolset';
import { DEFAULT_PROFILE } from '../toolsets/profile';

export interface ClientIdentity {
  id: string;
  name: string;
  /** The toolsets this client's token allows. */
  toolsets: readonly string[];
}

export interface ClientTokenInfo extends ClientIdentity {
  createdAt: number;
  hint: string;
  isDefault: boolean;
}

export const DEFAULT_CLIENT_ID = 'default';

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');
const hintOf = (token: string): string => token.slice(-4);

export class ClientTokens {
  private readonly byHash = new Map<string, ClientTokenInfo>();
  private readonly revoked = new Emitter<ClientIdentity>();
  private readonly toolsetsChanged = new Emitter<ClientIdentity>();
  private defaultInfo: ClientTokenInfo;
  private readonly toolsets: Map<string, string[]>;

  constructor(
    private readonly store: ClientTokenStore,
    private readonly defaultToken: string,
    private readonly now: () => number = Date.now,
    startedAt = now(),
  ) {
    this.toolsets = store.toolsets();
    this.defaultInfo = {
      id: DEFAULT_CLIENT_ID,
      name: DEFAULT_CLIENT_ID,
      toolsets: this.toolsetsOf(DEFAULT_CLIENT_ID),
      createdAt: startedAt,
      hint: hintOf(defaultToken),
      isDefault: true,
    };
    for (const row of store.active())
      this.byHash.set(row.tokenHash, {
        id: row.id,
        name: row.name,
        toolsets: this.toolsetsOf(row.id),
        createdAt: row.createdAt,
        hint: row.hint,
        isDefault: false,
      });
  }

  private toolsetsOf(id: string): readonly string[] {
    return this.toolsets.get(id) ?? DEFAULT_PROFILE;
  }

  /** The client a bearer token belongs to; undefined for a wrong or revoked one. */
  identify(bearer: string | undefined): ClientIdentity | undefined {
    if (!bearer) return undefined;
    const info = tokenMatches(this.defaultToken, bearer) ? this.defaultInfo : this.byHash.get(digest(bearer));
    return info ? { id: info.id, name: info.name, toolsets: info.toolsets } : undefined;
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

  /**
   * A new token for a client, allowed the given toolsets (the default profile without them); the
   * token itself is returned this once and never stored.
   */
  create(name: string, toolsets: readonly string[] = DEFAULT_PROFILE): { client: ClientTokenInfo; token: string } {
    const token = `tg_${randomBytes(32).toString('base64url')}`;
    const client: ClientTokenInfo = {
      id: randomBytes(6).toString('hex'),
      name,
      toolsets: uniqueNames(toolsets),
      createdAt: this.now(),
      hint: hintOf(token),
      isDefault: false,
    };
    const tokenHash = digest(token);
    this.store.insert({ id: client.id, name, tokenHash, hint: client.hint, createdAt: client.createdAt });
    this.store.setToolsets(client.id, client.toolsets, client.createdAt);
    this.toolsets.set(client.id, [...client.toolsets]);
    this.byHash.set(tokenHash, client);
    return { client, token };
  }

  /** A person changed which toolsets a client may use; listeners update its open sessions. */
  setToolsets(id: string, toolsets: readonly string[]): ClientTokenInfo | undefined {
    const names = uniqueNames(toolsets);
    let info: ClientTokenInfo | undefined;
    if (id === DEFAULT_CLIENT_ID) info = this.defaultInfo = { ...this.defaultInfo, toolsets: names };
    for (const [hash, c] of this.byHash)
      if (c.id === id) {
        info = { ...c, toolsets: names };
        this.byHash.set(hash, info);
      }
    if (!info) return undefined;
    this.store.setToolsets(id, names, this.now());
    this.toolsets.set(id, names);
    this.toolsetsChanged.emit({ id: info.id, name: info.name, toolsets: names });
    return info;
  }

  onToolsetsChanged(listener: (client: ClientIdentity) => void): Disposable {
    return this.toolsetsChanged.on(listener);
  }

  /** Revokes a token: every later request with it is a 401, and listeners close its sessions. */
  revoke(id: string): boolean {
    const entry = [...this.byHash.entries()].find(([, info]) => info.id === id);
    if (!entry) return false;
    this.byHash.delete(entry[0]);
    this.store.revoke(id, this.now());
    this.revoked.emit({ id: entry[1].id, name: entry[1].name, toolsets: entry[1].toolsets });
    return true;
  }

  onRevoked(listener: (client: ClientIdentity) => void): Disposable {
    return this.revoked.on(listener);
  }
}
