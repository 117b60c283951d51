/**
 * The read queries the pages share, one hook each, so every page reads the same cache entry the
 * event bridge keeps current.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Span } from '../../../shared/contract';
import { useApi } from './api-context';
import type { EndedApproval } from './event-bridge';
import { type SpanFilter, queryKeys } from './query-keys';
import { fetchIntoList } from './span-list';

export function useInfo() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.info, queryFn: () => api.info({}) });
}

export function useTools() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.tools, queryFn: () => api.listTools({}) });
}

export function useToolsets() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.toolsets, queryFn: () => api.listToolsets({}) });
}

export function useSpans(filter: SpanFilter) {
  const api = useApi();
  const client = useQueryClient();
  const key = queryKeys.spans(filter);
  return useQuery({
    queryKey: key,
    // Merged with what the list holds once the answer is here: spans streamed in meanwhile stay.
    queryFn: () =>
      fetchIntoList(
        (limit) => api.listSpans(limit === undefined ? filter : { ...filter, limit }),
        () => client.getQueryData<Span[]>(key),
      ),
    // Live appends keep the list current; a refetch would only reset the scroll position.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useUsage() {
  const api = useApi();
  // The host counts calls from all their spans (a retry changes how a call ended), so the page
  // shows the host's figures, refetched as spans stream in (event-bridge.ts), never its own guess.
  return useQuery({
    queryKey: queryKeys.usage,
    queryFn: () => api.usage({}),
    select: (report) => report.stats,
  });
}

export function useCallDetail(callId: string) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.callDetail(callId), queryFn: () => api.callDetail({ callId }) });
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

export function useDevices(enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.devices,
    queryFn: () => api.devices({}),
    refetchInterval: DEVICE_POLL_MS,
    enabled,
  });
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

export function useSkills() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.skills, queryFn: () => api.skills({}) });
}

export function useGithubStatus() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.github, queryFn: () => api.githubStatus({}) });
}

/** The open terminals; `terminals-changed` events refetch them, and a slow poll keeps "last active" honest. */
export function useTerminals() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.terminals, queryFn: () => api.terminals({}), refetchInterval: DEVICE_POLL_MS });
}
