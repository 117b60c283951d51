/**
 * Tells a person that a call waits for them when they are not looking: the tab title carries the
 * count ("(2) Toolgate"), and in a browser (the headless host's UI) each new request raises a
 * system notification while the tab is hidden, once the person has allowed it. The Electron shell
 * notifies from its main process, so the renderer stays quiet there. A request not decided in
 * time is a denial, so an approver who never hears of it is a failed call.
 */
import { useEffect, useRef } from 'react';
import type { PendingApproval } from '../../../shared/contract';
import { formatRequester } from '../components/format';
import { hrefFor } from '../router/hash-route';
import { useInfo, usePendingApprovals } from './queries';

const BASE_TITLE = 'Toolgate';

/** True where this page may raise system notifications (a browser that supports them, permission given). */
function browserAlertsAllowed(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

function notify(a: PendingApproval): void {
  const n = new Notification(`Approval needed: ${a.title || a.toolId}`, {
    body:
      `${a.risk} risk · ${a.toolId} · asked by ${formatRequester(a.requester)}. ` +
      'Decide in Toolgate before the time runs out.',
    tag: a.approvalId,
    requireInteraction: true,
  });
  // A click opens the card itself, not just the page.
  n.onclick = () => {
    window.focus();
    window.location.hash = hrefFor('approvals', a.approvalId);
    n.close();
  };
}

export function useApprovalAlerts(): void {
  const pending = usePendingApprovals();
  const mode = useInfo().data?.mode;
  const seen = useRef(new Set<string>());
  const list = pending.data;
  const count = list?.length ?? 0;

  useEffect(() => {
    document.title = count > 0 ? `(${count}) ${BASE_TITLE}` : BASE_TITLE;
  }, [count]);

  useEffect(() => {
    if (!list) return;
    for (const a of list) {
      if (seen.current.has(a.approvalId)) continue;
      seen.current.add(a.approvalId);
      if (mode === 'headless' && document.hidden && browserAlertsAllowed()) notify(a);
    }
  }, [list, mode]);
}
