/**
 * Keeps the GitHub tools registered exactly while a token is set: setting one registers all seven
 * in the `github` toolset (MCP clients get tools/list_changed), clearing it unregisters them and the
 * toolset is gone with them. The client is built for the
 * token and API URL in force when a call runs, so a new URL (GitHub Enterprise) applies at once.
 * The status tells whether a token is set and where it comes from, never the token.
 */
import type { Disposable } from '../core/disposable';
import type { ToolRegistry } from '../core/registry';
import type { Tool } from '../core/tool';
import { DEFAULT_GITHUB_API, type GithubClient, createGithubClient } from './client';
import type { FetchLike } from '../network/http-fetch';
import { type GithubTokenStore, TOKEN_PATTERN, type TokenSource, currentToken } from './token-store';
import { GITHUB_TOOLSET } from './toolset';

export interface GithubStatus {
  tokenSet: boolean;
  source: TokenSource;
  /** Where a token set in the UI is kept. */
  storage: string;
  /** Why that place is weaker than the OS keychain, when it is (the desktop app found no keyring). */
  storageWarning?: string;
  apiUrl: string;
  registered: boolean;
}

export interface GithubConnectorOptions {
  registry: ToolRegistry;
  tokens: GithubTokenStore;
  env: NodeJS.ProcessEnv;
  apiUrl: () => string | undefined;
  fetchImpl: FetchLike;
  userAgent: string;
  retryAfterBaseValue?: number;
  /** The seven tools over a client source. */
  tools: (client: () => GithubClient) => Tool[];
}

export class GithubTokenError extends Error {
  readonly fields = ['token'];
}

export class GithubConnector {
  private registration: Disposable | undefined;
  private cached: { key: string; client: GithubClient } | undefined;

  constructor(private readonly options: GithubConnectorOptions) {}

  /** Registers or unregisters the tools to match the token now; call at start and after a change. */
  sync(): GithubStatus {
    const { token } = currentToken(this.options.tokens, this.options.env);
    if (token && !this.registration)
      this.registration = this.options.registry.registerToolset(
        GITHUB_TOOLSET,
        this.options.tools(() => this.client()),
      );
    if (!token && this.registration) {
      this.registration.dispose();
      this.registration = undefined;
      this.cached = undefined;
    }
    return this.status();
  }

  status(): GithubStatus {
    const { source } = currentToken(this.options.tokens, this.options.env);
    return {
      tokenSet: source !== 'none',
      source,
      storage: this.options.tokens.kind,
      ...(this.options.tokens.warning ? { storageWarning: this.options.tokens.warning } : {}),
      apiUrl: this.apiUrl(),
      registered: this.registration !== undefined,
    };
  }

  setToken(token: string): GithubStatus {
    const value = token.trim();
    if (!TOKEN_PATTERN.test(value))
      throw new GithubTokenError('That is not a GitHub token: 8 to 255 visible characters, no spaces.');
    this.options.tokens.write(value);
    this.cached = undefined;
    return this.sync();
  }

  clearToken(): GithubStatus {
    this.options.tokens.clear();
    this.cached = undefined;
    return this.sync();
  }

  dispose(): void {
    this.registration?.dispose();
    this.registration = undefined;
  }

  private apiUrl(): string {
    return this.options.apiUrl()?.trim() || DEFAULT_GITHUB_API;
  }

  private client(): GithubClient {
    const { token } = currentToken(this.options.tokens, this.options.env);
    if (!token) throw new Error('no GitHub token is set');
    const baseUrl = this.apiUrl();
    // Keyed by the token's presence in memory only: the key itself is never shown anywhere.
    const key = `${baseUrl}\u0000${token}`;
    if (this.cached?.key !== key) {
      this.cached = {
        key,
        client: createGithubClient({
          token,
          baseUrl,
          fetchImpl: this.options.fetchImpl,
          userAgent: this.options.userAgent,
          ...(this.options.retryAfterBaseValue ? { retryAfterBaseValue: this.options.retryAfterBaseValue } : {}),
        }),
      };
    }
    return this.cached.client;
  }
}
