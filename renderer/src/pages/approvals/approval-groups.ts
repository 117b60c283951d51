/** Waiting calls grouped by tool and client, oldest group first, so fifty of them stay readable. */
import type { PendingApproval } from '../../../../shared/contract';
import { clientOf } from './origin';

export interface ApprovalGroup {
  key: string;
  toolId: string;
  client: string;
  items: PendingApproval[];
}

export function groupApprovals(list: readonly PendingApproval[]): ApprovalGroup[] {
  const groups = new Map<string, ApprovalGroup>();
  for (const a of [...list].sort((x, y) => x.requestedAt - y.requestedAt)) {
    const client = clientOf(a.sessionId);
    const key = `${a.toolId}\u0000${client}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, toolId: a.toolId, client, items: [] }));
    group.items.push(a);
  }
  return [...groups.values()];
}
