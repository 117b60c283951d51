/**
 * The answers the model gets when an approval refuses a call, what a running tool hears when its
 * own ask ends without a yes, and who the span says decided it (TraceSpan.decidedBy): a structured
 * field apart from the error's slug, so a call's class never depends on words its arguments might
 * share with the slug.
 */
import type { ApprovalDecision } from '../permission';
import { type ToolFailure, failure } from '../result';
import type { DecidedBy } from '../trace-span';
import { type ApprovalRule, ruleName } from './approval-rules';
import { type Waited, minutesSeconds } from './approval-wait';

/** A refusal, and who made it. */
export interface Refused {
  refusal: ToolFailure;
  decidedBy: DecidedBy;
}

/** Who a deny came from, by the decision's decider: a rule, the system (no approver, shutdown) or a person. */
export function deniedBy(decider: string | undefined): DecidedBy {
  if (decider === 'rule') return 'rule';
  return decider === 'system' ? 'policy' : 'person';
}

export function ruleRefusal(toolId: string, rule: ApprovalRule): ToolFailure {
  return failure('PERMISSION_DENIED', `The approval rule ${ruleName(rule)} denies this call to '${toolId}'.`, {
    hint: 'A person set this rule; do not retry this call or a variant of it. Change your approach, or ask the user.',
    data: { gate: 'approval', decision: 'deny', slug: 'approval-rule-denied', rule: rule.id },
  });
}

export function timeoutRefusal(toolId: string, waitedMs: number): ToolFailure {
  const waited = minutesSeconds(waitedMs);
  return failure(
    'PERMISSION_DENIED',
    `No one answered: the call to '${toolId}' waited ${waited} for a person's approval and did not run.`,
    {
      hint: 'Nobody approved this call in time. Do not retry it on your own; tell the user it needs their approval.',
      data: { gate: 'approval', decision: 'timeout', slug: 'approval-timeout', waitedMs },
    },
  );
}

export function failedRefusal(toolId: string, message: string): ToolFailure {
  return failure('PERMISSION_DENIED', `Approval for '${toolId}' could not be obtained: ${message}`, {
    data: { gate: 'approval', decision: 'deny', slug: 'approval-failed' },
  });
}

/** How an in-tool wait reads to the asking tool: every end but an answer is the system's deny. */
export function inToolDecision(waited: Waited): ApprovalDecision {
  switch (waited.kind) {
    case 'decided':
      return waited.decision;
    case 'timeout': {
      const reason = `no one answered: it waited ${minutesSeconds(waited.waitedMs)} for a person's approval`;
      return { decision: 'deny', reason, decider: 'system' };
    }
    case 'withdrawn':
      return { decision: 'deny', reason: 'withdrawn: the caller is gone', decider: 'system' };
    case 'failed':
      return { decision: 'deny', reason: `approval could not be obtained: ${waited.message}`, decider: 'system' };
  }
}

/** Who decided a wait that ended without a yes. */
export function waitedBy(waited: Waited): DecidedBy {
  if (waited.kind === 'decided') return deniedBy(waited.decision.decider);
  if (waited.kind === 'timeout') return 'timeout';
  return waited.kind === 'withdrawn' ? 'caller-gone' : 'approver-failed';
}
