/**
 * The react-query cache keys, in one place because the event bridge writes into the same entries
 * the pages read.
 */
export interface SpanFilter {
  toolId?: string;
  outcome?: 'success' | 'error' | 'cancelled';
  callId?: string;
  since?: number;
  limit: number;
}

export const queryKeys = {
  info: ['info'] as const,
  tools: ['tools'] as const,
  toolsets: ['toolsets'] as const,
  /** Every span list is ['spans', filter]; new spans are appended to each list they match. */
  spansRoot: ['spans'] as const,
  spans: (filter: SpanFilter) => ['spans', filter] as const,
  usage: ['usage'] as const,
  /** One call's story (Traces detail): ['callDetail', callId]. */
  callDetailRoot: ['callDetail'] as const,
  callDetail: (callId: string) => ['callDetail', callId] as const,
  breakers: ['breakers'] as const,
  pending: ['pendingApprovals'] as const,
  /** Waiting calls that ended without a decision (withdrawn, expired), kept so their card can say so. */
  endedApprovals: ['endedApprovals'] as const,
  approvalRules: ['approvalRules'] as const,
  audit: ['auditLog'] as const,
  shortcuts: ['shortcuts'] as const,
  devices: ['devices'] as const,
  deviceLogcat: (serial: string, lines: number) => ['deviceLogcat', serial, lines] as const,
  deviceLogcatRoot: ['deviceLogcat'] as const,
  browser: ['browser'] as const,
  settings: ['settings'] as const,
  clientTokens: ['clientTokens'] as const,
  skills: ['skills'] as const,
  github: ['githubStatus'] as const,
  terminals: ['terminals'] as const,
};
