/**
 * The arguments of recent calls, kept in this process's memory only: never written to the
 * database, the log, an export or a bug report, and gone when the host stops. They let a person
 * see what a call was asked to do, replay it, or open it in "Try it" while the host runs.
 *
 * Bounded by count and by size: the oldest calls go first, and arguments too large to keep are
 * not kept (the call is still remembered, marked so). What the environment looked like when a
 * call arrived is kept beside it, for the bug report.
 */
import type { ToolResult } from '../core/result';
import type { Requester } from '../core/tool';
import type { CallObserver } from '../core/call-observer';

export interface EnvironmentReading {
  key: string;
  value: unknown;
  /** How old the reading was when the call arrived. */
  ageMs: number;
}

export interface RememberedCall {
  callId: string;
  toolId: string;
  /** undefined when they were too large to keep (`argsDropped`). */
  args: unknown;
  argsDropped?: 'too-large' | 'not-json';
  sessionId: string;
  requester: Requester;
  at: number;
  /** The call this one ran again. */
  replayOf?: string;
  /** Telemetry when the call arrived. */
  environment: EnvironmentReading[];
  /** How it ended: the code and the hint the caller read. */
  ended?: { at: number; ok: boolean; code?: string; hint?: string };
}

export interface CallMemoryOptions {
  maxCalls?: number;
  /** Bound of all kept arguments together, in UTF-16 units of their JSON. */
  maxTotalChars?: number;
  /** Arguments larger than this are not kept. */
  maxArgChars?: number;
  now?: () => number;
}

export const DEFAULT_MEMORY_CALLS = 1000;

export class CallMemory {
  private readonly calls = new Map<string, RememberedCall & { size: number }>();
  private readonly replays = new Map<string, string[]>();
  private total = 0;
  private readonly maxCalls: number;
  private readonly maxTotal: number;
  private readonly maxArg: number;
  readonly now: () => number;

  constructor(options: CallMemoryOptions = {}) {
    this.maxCalls = options.maxCalls ?? DEFAULT_MEMORY_CALLS;
    this.maxTotal = options.maxTotalChars ?? 16 * 1024 * 1024;
    this.maxArg = options.maxArgChars ?? 256 * 1024;
    this.now = options.now ?? Date.now;
  }

  remember(call: Omit<RememberedCall, 'args' | 'argsDropped' | 'at'> & { args: unknown }): void {
    if (this.calls.has(call.callId)) return;
    // Measured before it is copied: arguments of megabytes are not kept, so they are not stringified either.
    let json: string | undefined;
    const tooLarge = textsExceed(call.args, this.maxArg);
    try {
      if (!tooLarge) json = JSON.stringify(call.args ?? {});
    } catch {
      json = undefined;
    }
    const entry: RememberedCall & { size: number } = { ...call, args: undefined, at: this.now(), size: 0 };
    if (tooLarge || (json !== undefined && json.length > this.maxArg)) entry.argsDropped = 'too-large';
    else if (json === undefined) entry.argsDropped = 'not-json';
    else {
      // A copy: the caller's object may change after the call, the memory must say what was asked.
      entry.args = JSON.parse(json) as unknown;
      entry.size = json.length;
    }
    this.calls.set(call.callId, entry);
    this.total += entry.size;
    if (call.replayOf !== undefined) {
      const list = this.replays.get(call.replayOf) ?? [];
      list.push(call.callId);
      this.replays.set(call.replayOf, list);
    }
    this.evict();
  }

  ended(callId: string, result: ToolResult): void {
    const entry = this.calls.get(callId);
    if (!entry) return;
    entry.ended = result.ok
      ? { at: this.now(), ok: true }
      : { at: this.now(), ok: false, code: result.error.code, hint: result.error.hint };
  }

  get(callId: string): RememberedCall | undefined {
    const entry = this.calls.get(callId);
    if (!entry) return undefined;
    const { size: _size, ...call } = entry;
    return { ...call, args: call.args === undefined ? undefined : structuredClone(call.args) };
  }

  /** Calls that ran this one again, oldest first (while they are remembered). */
  replaysOf(callId: string): string[] {
    return (this.replays.get(callId) ?? []).filter((id) => this.calls.has(id));
  }

  /** Whether two calls gave the same value for a top-level field; undefined when either is not remembered. */
  sameArgument(a: string, b: string, field: string): boolean | undefined {
    const x = this.calls.get(a)?.args;
    const y = this.calls.get(b)?.args;
    if (!isRecord(x) || !isRecord(y)) return undefined;
    return JSON.stringify(x[field]) === JSON.stringify(y[field]);
  }

  get size(): number {
    return this.calls.size;
  }

  private evict(): void {
    while (this.calls.size > this.maxCalls || this.total > this.maxTotal) {
      const oldest = this.calls.keys().next();
      if (oldest.done) return;
      const entry = this.calls.get(oldest.value);
      this.calls.delete(oldest.value);
      this.replays.delete(oldest.value);
      this.total -= entry?.size ?? 0;
    }
  }
}

/**
 * Whether the strings and keys in a value alone are longer than `limit` (its JSON is longer
 * still); stops reading at the limit, so a call of megabytes costs no more than one that fits.
 */
function textsExceed(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  // A value seen twice is counted twice, as JSON.stringify would write it twice.
  for (let steps = 0; stack.length > 0 && steps <= limit; steps++) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length;
    else if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (typeof v === 'object' && v !== null) {
      for (const key of Object.keys(v)) {
        total += key.length;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
    if (total > limit) return true;
  }
  return stack.length > 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface RememberingOptions {
  /** Only calls to tools the host has are worth remembering. */
  known(toolId: string): boolean;
  /** The environment now, for the bug report. */
  environment(): Array<{ key: string; value: unknown; at: number }>;
}

/** The observer that fills the memory as calls enter the host (observedExecutor, batch and shortcut steps). */
export function rememberingObserver(memory: CallMemory, options: RememberingOptions): CallObserver {
  return {
    started(call) {
      if (!options.known(call.toolId)) return;
      const requester = call.requester ?? { kind: 'internal' };
      const now = memory.now();
      memory.remember({
        callId: call.callId,
        toolId: call.toolId,
        args: call.args,
        sessionId: call.sessionId ?? 'local',
        requester: { ...requester },
        ...(requester.kind === 'replay' && requester.id ? { replayOf: requester.id } : {}),
        environment: options.environment().map((e) => ({ key: e.key, value: e.value, ageMs: Math.max(0, now - e.at) })),
      });
    },
    ended: (callId, result) => memory.ended(callId, result),
  };
}
