/**
 * What an approval can cover, as the card offers it and the audit writes it: this call only, the
 * tool for the rest of the session (any arguments), or the tool on one target (a device, a
 * folder, a host) for the session. A call an approval rule asks about is offered once only: the
 * person's rule says such calls are asked every time.
 */
import type { ApprovalAnswer, ApprovalChoice, ApprovalRequest, ApprovalTarget } from '../permission';
import type { Requester, Tool } from '../tool';
import { type ApprovalRule, ruleName } from './approval-rules';

export const ONCE: ApprovalChoice = { decision: 'approve_once', label: 'Approve once', covers: 'this call only' };

/** "session claude#3 (client claude)", "the UI session". */
export function sessionWords(sessionId: string): string {
  if (sessionId === 'ui') return 'the UI session';
  if (sessionId === 'local' || sessionId === '') return 'local calls';
  const hash = sessionId.lastIndexOf('#');
  return hash > 0 ? `session ${sessionId} (client ${sessionId.slice(0, hash)})` : `session ${sessionId}`;
}

/** The choices of a tool-level card; once only unless `grants`. */
export function toolChoices(
  toolId: string,
  sessionId: string,
  target: ApprovalTarget | undefined,
  grants: boolean,
): ApprovalChoice[] {
  if (!grants) return [ONCE];
  const rest = `for the rest of ${sessionWords(sessionId)}`;
  const choices: ApprovalChoice[] = [
    ONCE,
    {
      decision: 'approve_session',
      label: `Approve ${toolId} for this session`,
      covers: `${toolId} with any arguments, ${rest}`,
    },
  ];
  if (target !== undefined) {
    const where = target.kind === 'folder' ? `${target.label} (its files, not the folders inside it)` : target.label;
    choices.push({
      decision: 'approve_target',
      label: `Approve ${toolId} on ${target.label} for this session`,
      covers: `${toolId} on ${where}, ${rest}`,
    });
  }
  return choices;
}

/** The session choice of a card a running tool asks, covering what that tool remembers. */
export function inToolSession(request: ApprovalRequest, covers: string): ApprovalChoice {
  return {
    decision: 'approve_session',
    label: 'Approve for this session',
    covers: `${covers}, for the rest of ${sessionWords(request.sessionId)}`,
  };
}

/** What an answer covers, in the card's words. */
export function coverOf(request: ApprovalRequest, decision: ApprovalAnswer): string {
  return (request.choices ?? [ONCE]).find((c) => c.decision === decision)?.covers ?? ONCE.covers;
}

/** An answer the card did not offer (a target for a call naming none) counts as once. */
export function offeredAnswer<D extends { decision: string }>(request: ApprovalRequest, decision: D): D {
  const offered = request.choices ?? [ONCE];
  return decision.decision !== 'deny' && !offered.some((c) => c.decision === decision.decision)
    ? { ...decision, decision: 'approve_once' }
    : decision;
}

/**
 * The card about a call: the parsed arguments, the ignored fields, the target, the rule that
 * asked, and the choices (once only when a rule asked).
 */
export function toolCard(
  tool: Tool,
  call: {
    callId: string;
    sessionId: string;
    args: unknown;
    requester: Requester;
    ignored?: Readonly<Record<string, unknown>> | undefined;
  },
  target: ApprovalTarget | undefined,
  rule: ApprovalRule | undefined,
): ApprovalRequest {
  const request: ApprovalRequest = {
    callId: call.callId,
    sessionId: call.sessionId,
    toolId: tool.id,
    title: tool.title,
    args: call.args,
    risk: tool.metadata.risk,
    annotations: tool.metadata.annotations,
    requester: call.requester,
    ...(call.ignored !== undefined ? { ignored: call.ignored } : {}),
    ...(target !== undefined ? { target } : {}),
    choices: toolChoices(tool.id, call.sessionId, rule === undefined ? target : undefined, rule === undefined),
  };
  if (rule !== undefined) request.rule = ruleName(rule);
  return request;
}
