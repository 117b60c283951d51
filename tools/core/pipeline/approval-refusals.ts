/**
 * The answers the model gets when an approval refuses a call, and who the span says decided it
 * (TraceSpan.decidedBy): a structured field apart from the error's slug, so a call's class never
 * depends on words its arguments might share with the slug.
 */
import { type ToolFailure, failure } from '../result';
import type { DecidedBy } from '../trace-span';
import { type ApprovalRule, ruleName } from './approval-rules';
import { minutesSeconds } from './approval-wait';

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
