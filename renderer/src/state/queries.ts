/**
 * The read queries the pages share, one hook each, so every page reads the same cache entry the
 * event bridge keeps current.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from './api-context';
import type { EndedApproval } from './event-bridge';
import { liveSpans } from './live-spans';
import { foldNewSpans } from './usage-aggregate';
import { type SpanFilter, queryKeys } from './query-keys';

export function useInfo() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.info, queryFn: () => api.info({}) });
}

export function useTools() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.tools, queryFn: () => api.listTools({}) });
}

export function useSpans(filter: SpanFilter) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.spans(filter),
    queryFn: () => api.listSpans(filter),
    // Live appends keep the list current; a refetch would only reset the scroll position.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useUsage() {
  const api = useApi();
  const client = useQueryClient();
  // The cache keeps the whole report (its watermark is what the event bridge folds against); pages
  // read the statistics. Spans that streamed in while the request was on the way are folded in.
  return useQuery({
    queryKey: queryKeys.usage,
    queryFn: async () => foldNewSpans(await api.usage({}), liveSpans(client)).report,
    select: (report) => report.stats,
  });
}

export function useBreakers() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.breakers, queryFn: () => api.breakers({}) });
}

export function usePendingApprovals() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.pending, queryFn: () => api.pendingApprovals({}) });
}

/** Waiting calls that ended without a decision; filled by the event bridge, never fetched. */
export function useEndedApprovals() {
  return useQuery<EndedApproval[]>({
    queryKey: queryKeys.endedApprovals,
    queryFn: () => [],
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useApprovalRules() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.approvalRules, queryFn: () => api.approvalRules({}) });
}

export function useAuditLog() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.audit, queryFn: () => api.auditLog({ limit: 200 }) });
}

export function useShortcuts() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.shortcuts, queryFn: () => api.shortcuts({}) });
}

/** Telemetry (foreground app, keyboard) changes without an event; a slow poll keeps it honest. */
const DEVICE_POLL_MS = 5_000;

export function useDevices() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.devices, queryFn: () => api.devices({}), refetchInterval: DEVICE_POLL_MS });
}

export function useSettings() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.settings, queryFn: () => api.getSettings({}) });
}

export function useBrowserView() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.browser, queryFn: () => api.browser({}), refetchInterval: DEVICE_POLL_MS });
}

export function useClientTokens() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.clientTokens, queryFn: () => api.clientTokens({}) });
}
