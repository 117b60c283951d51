/**
 * Live updates without polling: host events are batched per animation frame and written into the
 * react-query caches the pages read. Spans are prepended to every span list they match and folded
 * into the usage statistics; breaker transitions move the badge at once; approvals appear and
 * disappear (one withdrawn or expired stays, to say so); the shell's "open this approval" (a click
 * on its desktop notification) opens the card; tools-changed refetches the catalog. Derived data the page cannot compute (shortcut
 * suggestions, breaker cooldowns, the audit log) is refetched, throttled.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { BreakerView, HostEvent, PendingApproval, RendererApi, Span, UsageReport } from '../../../shared/contract';
import { navigate } from '../router/hash-route';
import { applyTransition } from './breaker-update';
import { createFrameBatcher } from './frame-batcher';
import { type SpanFilter, queryKeys } from './query-keys';
import { SPAN_LIST_CAP, prependSpans, spanMatches } from './span-list';
import { rememberSpans } from './live-spans';
import { type NumberedSpan, foldNewSpans } from './usage-aggregate';

/** A refetch of derived data happens at most this often while events keep coming. */
const DERIVED_REFRESH_MS = 2_000;

function throttledInvalidate(
  client: QueryClient,
  key: readonly unknown[],
  everyMs: number,
): { fire(): void; dispose(): void } {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    last = Date.now();
    void client.invalidateQueries({ queryKey: key });
  };
  return {
    fire() {
      if (timer !== undefined) return;
      const wait = Math.max(0, last + everyMs - Date.now());
      timer = setTimeout(run, wait);
    },
    dispose: () => clearTimeout(timer),
  };
}

export function applySpanBatch(client: QueryClient, spans: readonly Span[]): void {
  for (const [key, list] of client.getQueriesData<Span[]>({ queryKey: queryKeys.spansRoot })) {
    if (!list) continue;
    const filter = key[1] as SpanFilter | undefined;
    const matching = filter ? spans.filter((s) => spanMatches(filter, s)) : spans;
    if (matching.length) client.setQueryData<Span[]>(key, prependSpans(list, matching, SPAN_LIST_CAP));
  }
}

/** A waiting call that ended without anyone's decision: its card stays to say so until dismissed. */
export interface EndedApproval {
  approval: PendingApproval;
  outcome: 'withdrawn' | 'expired';
}

const ENDED_KEPT = 20;

function endedOutcome(decision: string): EndedApproval['outcome'] | undefined {
  return decision === 'withdrawn' || decision === 'expired' ? decision : undefined;
}

export function connectEventsToCache(api: RendererApi, client: QueryClient): () => void {
  const shortcuts = throttledInvalidate(client, queryKeys.shortcuts, DERIVED_REFRESH_MS);
  const usage = throttledInvalidate(client, queryKeys.usage, DERIVED_REFRESH_MS);
  const breakers = throttledInvalidate(client, queryKeys.breakers, 300);
  const audit = throttledInvalidate(client, queryKeys.audit, 300);
  const browser = throttledInvalidate(client, queryKeys.browser, 300);

  const deliver = (events: HostEvent[]) => {
    const spans: Span[] = [];
    const numbered: NumberedSpan[] = [];
    for (const e of events) {
      switch (e.type) {
        case 'span':
          spans.push(e.span);
          numbered.push({ seq: e.seq, span: e.span });
          // The Browser page lists recent actions; a browser tool call is one.
          if (e.span.toolId.startsWith('browser_')) browser.fire();
          break;
        case 'breaker':
          client.setQueryData<BreakerView[]>(queryKeys.breakers, (views) =>
            views ? applyTransition(views, e.transition) : views,
          );
          breakers.fire();
          break;
        case 'approval-pending':
          client.setQueryData<PendingApproval[]>(queryKeys.pending, (list) =>
            list && !list.some((a) => a.approvalId === e.approval.approvalId) ? [...list, e.approval] : list,
          );
          break;
        case 'approval-decided': {
          const ended = endedOutcome(e.decision);
          const item = client
            .getQueryData<PendingApproval[]>(queryKeys.pending)
            ?.find((a) => a.approvalId === e.approvalId);
          if (ended && item)
            client.setQueryData<EndedApproval[]>(queryKeys.endedApprovals, (list) =>
              [...(list ?? []), { approval: item, outcome: ended }].slice(-ENDED_KEPT),
            );
          client.setQueryData<PendingApproval[]>(queryKeys.pending, (list) =>
            list?.filter((a) => a.approvalId !== e.approvalId),
          );
          audit.fire();
          break;
        }
        case 'approval-audited':
          audit.fire();
          break;
        case 'open-approval':
          navigate('approvals', e.approvalId);
          break;
        case 'tools-changed':
          void client.invalidateQueries({ queryKey: queryKeys.tools });
          void client.invalidateQueries({ queryKey: queryKeys.shortcuts });
          void client.invalidateQueries({ queryKey: queryKeys.info });
          break;
        case 'devices-changed':
          void client.invalidateQueries({ queryKey: queryKeys.info });
          void client.invalidateQueries({ queryKey: queryKeys.devices });
          break;
        case 'browser-changed':
          void client.invalidateQueries({ queryKey: queryKeys.info });
          browser.fire();
          break;
      }
    }
    if (spans.length === 0) return;
    rememberSpans(client, numbered);
    applySpanBatch(client, spans);
    const current = client.getQueryData<UsageReport>(queryKeys.usage);
    if (current) {
      const folded = foldNewSpans(current, numbered);
      if (folded.report !== current) client.setQueryData(queryKeys.usage, folded.report);
      if (!folded.complete) usage.fire();
    }
    shortcuts.fire();
  };

  const batcher = createFrameBatcher<HostEvent>(deliver);
  // Screen frames never touch the caches: the live screens draw them straight from the stream.
  const unsubscribe = api.onEvent((e) => {
    if (e.type !== 'device-frame' && e.type !== 'browser-frame') batcher.push(e);
  });
  return () => {
    unsubscribe();
    batcher.dispose();
    for (const t of [shortcuts, usage, breakers, audit, browser]) t.dispose();
  };
}
