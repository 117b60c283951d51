/**
 * The key of a breaker: the tool id, or `toolId@<digest>` when the tool keeps a breaker per target
 * (a phone, an origin, an MCP server, a browser). The target comes from the call's arguments, so
 * only a short digest of it is ever kept, shown or stored: another session reading a breaker learns
 * which tool is paused and that it is one target, never the target's text.
 */
import { createHash } from 'node:crypto';

const DIGEST_LENGTH = 8;
const DIGEST = /^[0-9a-f]{8}$/;
/** Calls to the same few targets are the common case; the cache spares a hash per call. */
const CACHE_LIMIT = 1024;
const cache = new Map<string, string>();

/** A short, stable digest of a breaker scope (hex, 8 characters). */
export function scopeDigest(scope: string): string {
  let digest = cache.get(scope);
  if (digest === undefined) {
    digest = createHash('sha256').update(scope).digest('hex').slice(0, DIGEST_LENGTH);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(scope, digest);
  }
  return digest;
}

export function breakerKey(toolId: string, scope: string | undefined): string {
  return scope ? `${toolId}@${scopeDigest(scope)}` : toolId;
}

/** The tool and target digest a key names; `target` is undefined for a tool-wide breaker. */
export function parseBreakerKey(key: string): { toolId: string; target: string | undefined } {
  const at = key.lastIndexOf('@');
  if (at > 0 && DIGEST.test(key.slice(at + 1))) return { toolId: key.slice(0, at), target: key.slice(at + 1) };
  return { toolId: key, target: undefined };
}

/**
 * A key as a saved snapshot may spell it: keys written before targets were digested carry the
 * target's text after the `@` (`ui_tap@emulator-5554`); they are digested on the way in.
 */
export function storedBreakerKey(key: string): string {
  const parsed = parseBreakerKey(key);
  if (parsed.target !== undefined) return key;
  const at = key.indexOf('@');
  return at > 0 ? breakerKey(key.slice(0, at), key.slice(at + 1)) : key;
}
