/**
 * Where the GitHub token is kept. A port the shell implements: the desktop app keeps it with
 * Electron's safeStorage (the OS keychain), headless Toolgate in a file of the data dir readable
 * by its owner only, and TOOLGATE_GITHUB_TOKEN in the environment overrides both. The token is
 * written once and read by the GitHub client; no method returns it to the UI, a tool, a log or a
 * trace.
 */
import { chmodSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export interface GithubTokenStore {
  /** Where it is kept, as the Settings page says it, e.g. "a 0600 file in the data dir". */
  readonly kind: string;
  /** Said plainly in Settings when the place is weaker than a person would expect (no OS keychain). */
  readonly warning?: string;
  read(): string | undefined;
  write(token: string): void;
  clear(): void;
}

export const GITHUB_TOKEN_ENV = 'TOOLGATE_GITHUB_TOKEN';

/** A personal access token or app token: visible ASCII, no spaces (it travels in a header). */
export const TOKEN_PATTERN = /^[\x21-\x7e]{8,255}$/;

export function fileTokenStore(path: string): GithubTokenStore {
  return {
    kind: 'a file in the data dir, readable by its owner only',
    read() {
      try {
        const value = readFileSync(path, 'utf8').trim();
        return TOKEN_PATTERN.test(value) ? value : undefined;
      } catch {
        return undefined;
      }
    },
    write(token) {
      writeOwnerOnly(path, token);
    },
    clear() {
      rmSync(path, { force: true });
    },
  };
}

/**
 * Replaces the file at `path` with `data`, readable and writable by its owner only: written to a
 * fresh 0600 file beside it and renamed over it, so no reader ever sees a part or a wider mode.
 */
export function writeOwnerOnly(path: string, data: string | Uint8Array): void {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  closeSync(openSync(temp, 'wx', 0o600));
  chmodSync(temp, 0o600);
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, path);
}

export type TokenSource = 'env' | 'stored' | 'none';

/** The token in force and where it comes from: the environment wins over the store. */
export function currentToken(
  store: GithubTokenStore,
  env: NodeJS.ProcessEnv,
): { token: string | undefined; source: TokenSource } {
  const fromEnv = env[GITHUB_TOKEN_ENV]?.trim();
  if (fromEnv && TOKEN_PATTERN.test(fromEnv)) return { token: fromEnv, source: 'env' };
  const stored = store.read();
  return stored ? { token: stored, source: 'stored' } : { token: undefined, source: 'none' };
}
