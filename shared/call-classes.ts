/**
 * What a call's end means, in the words every page counts with. A call is one request (a retried
 * call is one call of several attempts); its class comes from its last span:
 *
 * - succeeded: the tool ran and answered.
 * - toolFailed: the tool ran and failed (EXECUTION_FAILED, TIMEOUT, UNKNOWN): the tool is unwell.
 * - callerMistake: the caller's own input was wrong or asked for what is not there
 *   (INVALID_ARGUMENT, NOT_FOUND, UNSUPPORTED), whether validation or the tool said so.
 * - denied: a person said no (PERMISSION_DENIED that the span says a person decided: at the
 *   approval gate, or at a running tool's ask: a shell command, a setting, a terminal).
 * - unanswered: it asked a person and no answer came in time, or the approver failed.
 * - policyRefused: any other PERMISSION_DENIED: a rule or a policy said no without asking anyone
 *   (path escape, secret file, a shell command that is never run, SelfGuard, a deny rule).
 *
 * Who decided is the span's `decidedBy`, a structured field the approval path writes, never the
 * error's slug: a slug is dropped when the arguments share its words (a file named
 * "approval-denied.txt"), and a call's class must not depend on what its arguments say.
 * - refused: a stage refused it before the tool ran: the circuit breaker, the rate limiter, the
 *   environment gate (CIRCUIT_OPEN, RATE_LIMITED, any other code on attempt 0).
 * - cancelled: the caller withdrew it.
 *
 * Pure and free of imports, so the host's reports and the renderer use the same rule.
 */

/**
 * Who decided the approval that refused a call: a person, nobody in time, a person's approval
 * rule, the system (no approver connected, the host shutting down), the approver failing, or the
 * caller leaving.
 */
export const DECIDERS = ['person', 'timeout', 'rule', 'policy', 'approver-failed', 'caller-gone'] as const;
export type DecidedBy = (typeof DECIDERS)[number];

export const CALL_CLASSES = [
  'succeeded',
  'toolFailed',
  'callerMistake',
  'denied',
  'unanswered',
  'policyRefused',
  'refused',
  'cancelled',
] as const;
export type CallClass = (typeof CALL_CLASSES)[number];

export interface ClassifiedSpan {
  outcome: 'success' | 'error' | 'cancelled';
  errorCode?: string | undefined;
  /** Who decided the approval that refused the call: what tells a person's denial from a policy's refusal. */
  decidedBy?: string | undefined;
  attempt: number;
}

/** The class of a PERMISSION_DENIED by who decided it; a span no approval refused was a policy's. */
const DECIDED_CLASS: Readonly<Record<DecidedBy, CallClass>> = {
  person: 'denied',
  timeout: 'unanswered',
  'approver-failed': 'unanswered',
  rule: 'policyRefused',
  policy: 'policyRefused',
  'caller-gone': 'cancelled',
};

const CALLER_CODES: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'UNSUPPORTED']);
const REFUSAL_CODES: ReadonlySet<string> = new Set(['CIRCUIT_OPEN', 'RATE_LIMITED']);

/** The class of a call whose last span is `span`. */
export function classifyCall(span: ClassifiedSpan): CallClass {
  if (span.outcome === 'success') return 'succeeded';
  if (span.outcome === 'cancelled') return 'cancelled';
  const code = span.errorCode ?? 'UNKNOWN';
  if (code === 'PERMISSION_DENIED') {
    const by = span.decidedBy;
    return by !== undefined && Object.hasOwn(DECIDED_CLASS, by) ? DECIDED_CLASS[by as DecidedBy] : 'policyRefused';
  }
  if (CALLER_CODES.has(code)) return 'callerMistake';
  if (REFUSAL_CODES.has(code) || span.attempt === 0) return 'refused';
  return 'toolFailed';
}

/** How each class reads for one call and for several ("1 tool failure", "3 tool failures"). */
export const CALL_CLASS_WORDS: Readonly<Record<CallClass, { one: string; many: string }>> = {
  succeeded: { one: 'succeeded', many: 'succeeded' },
  toolFailed: { one: 'tool failure', many: 'tool failures' },
  callerMistake: { one: 'caller mistake', many: 'caller mistakes' },
  denied: { one: 'denied by a person', many: 'denied by a person' },
  unanswered: { one: 'unanswered approval', many: 'unanswered approvals' },
  policyRefused: { one: 'refused by policy', many: 'refused by policy' },
  refused: { one: 'refused (breaker, limiter or environment)', many: 'refused (breaker, limiter or environment)' },
  cancelled: { one: 'cancelled', many: 'cancelled' },
};

export type ClassCounts = Record<CallClass, number>;

export function emptyClassCounts(): ClassCounts {
  return {
    succeeded: 0,
    toolFailed: 0,
    callerMistake: 0,
    denied: 0,
    unanswered: 0,
    policyRefused: 0,
    refused: 0,
    cancelled: 0,
  };
}

/** "1 call", "2 calls", "0 attempts". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
