/**
 * Live updates without polling: host events are batched per animation frame and written into the
 * react-query caches the pages read. Spans are prepended to every span list they match; breaker
 * transitions move the badge at once; approvals appear and disappear (one withdrawn or expired
 * stays, to say so); the shell's "open this approval" (a click on its desktop notification) opens
 * the card; tools-changed refetches the catalog. Derived data the page cannot compute (usage statistics, where a retry
 * changes how a call ended; shortcut suggestions; breaker cooldowns; the audit log) is refetched, throttled.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { BreakerView, HostEvent, PendingApproval, RendererApi, Span } from '../../../shared/contract';
import { navigate } from '../router/hash-route';
import { applyTransition } from './breaker-update';
import { createFrameBatcher } from './frame-batcher';
import { type SpanFilter, queryKeys } from './query-keys';
import { SPAN_LIST_CAP, prependSpans, spanMatches } from './span-list';

/** A refetch of derived data happens at most this often while events keep coming. */
const DERIVED_REFRESH_MS = 2_000;
/** Usage figures (the Overview's activity, the Latency page) follow the calls more closely. */
const USAGE_REFRESH_MS = 1_000;

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

/** A call's detail on screen follows its new attempts and the calls it starts. */
export function refreshCallDetails(client: QueryClient, spans: readonly Span[]): void {
  const touched = new Set<string>();
  for (const s of spans) {
    touched.add(s.callId);
    if (s.parentCallId) touched.add(s.parentCallId);
  }
  for (const [key] of client.getQueriesData({ queryKey: queryKeys.callDetailRoot })) {
    const callId = key[1];
    if (typeof callId === 'string' && touched.has(callId)) void client.invalidateQueries({ queryKey: key });
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
  const usage = throttledInvalidate(client, queryKeys.usage, USAGE_REFRESH_MS);
  const breakers = throttledInvalidate(client, queryKeys.breakers, 300);
  const audit = throttledInvalidate(client, queryKeys.audit, 300);
  const browser = throttledInvalidate(client, queryKeys.browser, 300);
  const terminals = throttledInvalidate(client, queryKeys.terminals, 200);

  const deliver = (events: HostEvent[]) => {
    const spans: Span[] = [];
    for (const e of events) {
      switch (e.type) {
        case 'span':
          spans.push(e.span);
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
          void client.invalidateQueries({ queryKey: queryKeys.callDetailRoot });
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
          void client.invalidateQueries({ queryKey: queryKeys.toolsets });
          void client.invalidateQueries({ queryKey: queryKeys.shortcuts });
          void client.invalidateQueries({ queryKey: queryKeys.info });
          void client.invalidateQueries({ queryKey: queryKeys.skills });
          void client.invalidateQueries({ queryKey: queryKeys.github });
          break;
        case 'skills-changed':
          void client.invalidateQueries({ queryKey: queryKeys.skills });
          break;
        case 'devices-changed':
          void client.invalidateQueries({ queryKey: queryKeys.info });
          void client.invalidateQueries({ queryKey: queryKeys.devices });
          break;
        case 'browser-changed':
          void client.invalidateQueries({ queryKey: queryKeys.info });
          browser.fire();
          break;
        case 'terminals-changed':
          terminals.fire();
          break;
      }
    }
    if (spans.length === 0) return;
    applySpanBatch(client, spans);
    refreshCallDetails(client, spans);
    usage.fire();
    shortcuts.fire();
  };

  const batcher = createFrameBatcher<HostEvent>(deliver);
  // Screen frames and terminal output never touch the caches: the live screens draw them straight from the stream.
  const unsubscribe = api.onEvent((e) => {
    if (e.type !== 'browser-frame' && e.type !== 'terminal-output') batcher.push(e);
  });
  return () => {
    unsubscribe();
    batcher.dispose();
    for (const t of [shortcuts, usage, breakers, audit, browser, terminals]) t.dispose();
  };
}
