/** Answers every approval the host asks for, as a person at the UI would, while a test runs. */
import type { Host } from '../../../tools/host/host';

export function answerApprovals(
  host: Host,
  decision: 'approve_once' | 'deny' = 'approve_once',
): { asked: string[]; stop(): void } {
  const asked: string[] = [];
  const sub = host.events.on((event) => {
    if (event.type !== 'approval-pending') return;
    asked.push(event.approval.toolId);
    void host.api.decideApproval({ approvalId: event.approval.approvalId, decision });
  });
  return { asked, stop: () => sub.dispose() };
}
