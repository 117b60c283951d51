/**
 * Approvals asked from inside a running tool (shell_execute's command gate, get_set_settings'
 * writes, a download a page started) go through the approval gate's `askInTool`: the same queue,
 * rules, deadline, progress and audit as the tool-level gate, and the call's run timeout is held
 * while the person decides, so a person's time is never the tool's. What "approve for this
 * session" covers is what the asking tool remembers: a command line on one device, every
 * download, what a terminal says it grants; a tool that remembers nothing (get_set_settings) is
 * offered approve once only.
 */
import type { ApprovalGate } from '../core/pipeline/approval-gate';
import type { ApprovalDecision, ApprovalRequest } from '../core/permission';

export type InToolApprover = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalDecision>;

const NO_APPROVER: ApprovalDecision = {
  decision: 'deny',
  reason: 'no approver is connected to this host',
  decider: 'system',
};

/** What a tool remembers when a person approves it for the session. */
export function sessionCovers(request: ApprovalRequest): string | undefined {
  const asked = request as ApprovalRequest & { command?: unknown; serial?: unknown };
  if (request.toolId === 'shell_execute' && typeof asked.command === 'string' && typeof asked.serial === 'string')
    return (
      `the command line \`${asked.command.length > 80 ? `${asked.command.slice(0, 77)}…` : asked.command}\` ` +
      `on device ${asked.serial}`
    );
  if (request.toolId === 'browser_download') return 'every download the browser starts';
  return undefined;
}

export function inToolApprover(gate: ApprovalGate | undefined): InToolApprover {
  return async (request, signal) => {
    if (gate === undefined) return NO_APPROVER;
    const { sessionCovers: told, ...asked } = request;
    const covers = told ?? sessionCovers(asked);
    return gate.askInTool(asked, { ...(signal ? { signal } : {}), ...(covers ? { sessionCovers: covers } : {}) });
  };
}
