/**
 * Reading a saved breaker snapshot (the host's `breakers.snapshot` setting) back safely. Only the
 * fields a breaker needs come through, checked one by one; anything else is dropped. Snapshots
 * written before breakers forgot error messages carry the last error's message and a slug made by
 * an older rule: both are dropped, the code stays. Keys that spell a target are digested.
 */
import { TOOL_ERROR_CODES, type ToolErrorCode } from '../result';
import { codeSlug } from '../trace/error-slug';
import { storedBreakerKey } from './breaker-key';
import type { BreakerLastError, BreakerSnapshot } from './circuit-breaker';

const CODES: ReadonlySet<string> = new Set(TOOL_ERROR_CODES);
const SAFE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLUG = 48;

export function readBreakerSnapshots(saved: unknown): Record<string, BreakerSnapshot> {
  const out: Record<string, BreakerSnapshot> = {};
  if (!isRecord(saved)) return out;
  for (const [key, value] of Object.entries(saved)) {
    const snapshot = readOne(value);
    if (snapshot !== undefined) out[storedBreakerKey(key)] = snapshot;
  }
  return out;
}

function readOne(value: unknown): BreakerSnapshot | undefined {
  if (!isRecord(value)) return undefined;
  const state = typeof value.state === 'string' ? value.state.toLowerCase() : undefined;
  const consecutiveFailures = count(value.consecutiveFailures ?? value.failures);
  const lastError = readLastError(value.lastError);
  const common = lastError ? { consecutiveFailures, lastError } : { consecutiveFailures };
  switch (state) {
    case 'closed':
      return { state, ...common };
    case 'open': {
      const openedAt = finite(value.openedAt);
      const cooldownMs = finite(value.cooldownMs);
      if (openedAt === undefined || cooldownMs === undefined || cooldownMs <= 0) return undefined;
      return { state, openedAt, cooldownMs, ...common };
    }
    case 'half_open': {
      const cooldownMs = finite(value.cooldownMs);
      if (cooldownMs === undefined || cooldownMs <= 0) return undefined;
      return { state, cooldownMs, ...common };
    }
    default:
      return undefined;
  }
}

function readLastError(value: unknown): BreakerLastError | undefined {
  if (!isRecord(value) || typeof value.code !== 'string' || !CODES.has(value.code)) return undefined;
  const code = value.code as ToolErrorCode;
  const at = finite(value.at) ?? 0;
  const fromOldRule = 'message' in value;
  const slug =
    !fromOldRule && typeof value.slug === 'string' && value.slug.length <= MAX_SLUG && SAFE_SLUG.test(value.slug)
      ? value.slug
      : codeSlug(code);
  return { code, slug, at };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
