/**
 * A person's deny rules, between schema validation and a tool's precheck: a call a deny rule
 * covers is refused by the rule, in the rule's words, before anything reads its target. Were the
 * precheck first, a call the person ruled out would still learn whether its file, memory or
 * package exists (NOT_FOUND against the rule's refusal), and the answer would not be the person's.
 * The rules see the parsed arguments (defaults filled in), as the approval gate does.
 */
import type { ApprovalGate } from '../approval-gate';
import type { Stage } from '../pipeline-call';

export function ruleStage(gate: ApprovalGate): Stage {
  return (c, next) => {
    const refusal = gate.refusedByRule(c.tool, {
      callId: c.callId,
      sessionId: c.sessionId,
      args: c.args,
      ...(c.digest !== undefined ? { argsDigest: c.digest } : {}),
    });
    if (refusal === undefined) return next(c);
    c.decidedBy = 'rule';
    return refusal;
  };
}
