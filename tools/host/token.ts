/**
 * The bearer token that guards the MCP endpoint and the UI API: `TOOLGATE_TOKEN` when set,
 * otherwise generated on first run and kept in the data dir with mode 0600.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

export function loadOrCreateToken(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.TOOLGATE_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved.length >= 16) {
      chmodSync(file, 0o600);
      return saved;
    }
  }
  const token = randomBytes(24).toString('base64url');
  // 'wx' would fail on a leftover short file; write with the mode, then enforce it in case the file existed.
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

/** Constant-time comparison so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
