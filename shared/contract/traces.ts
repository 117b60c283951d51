/**
 * Spans (one per attempt, refusals included), the query over them, and the usage statistics built from
 * them. Part of the contract (shared/contract.ts).
 */
import { z } from 'zod';
import { DECIDERS } from '../call-classes';
import { ErrorCode } from './tools';

export const Span = z.object({
  spanId: z.string(),
  callId: z.string(),
  parentCallId: z.string().optional(),
  toolId: z.string(),
  /** The session's label (`<client>#<n>` for MCP, `ui` for the UI), never an MCP session id. */
  sessionId: z.string(),
  requesterKind: z.string(),
  attempt: z.number(),
  startedAt: z.number(),
  durationMs: z.number(),
  outcome: z.enum(['success', 'error', 'cancelled']),
  errorCode: ErrorCode.optional(),
  errorSlug: z.string().optional(),
  /** The error's own words, with every run of argument text replaced by a placeholder (‹url›); at most 1 KB. */
  errorText: z.string().optional(),
  backoffMs: z.number(),
  /** Time within the span spent waiting for a person, kept out of `durationMs` (the run). */
  personWaitMs: z.number().optional(),
  /** Who decided the approval that refused the call; what its class (denied by a person, …) rests on. */
  decidedBy: z.enum(DECIDERS).optional(),
  argsDigest: z.object({
    fields: z.record(z.string(), z.object({ kind: z.string(), length: z.number(), printable: z.number().optional() })),
    totalLength: z.number(),
  }),
});
export type Span = z.infer<typeof Span>;

export const SpanQuery = z.object({
  toolId: z.string().optional(),
  outcome: z.enum(['success', 'error', 'cancelled']).optional(),
  callId: z.string().optional(),
  since: z.number().optional(),
  until: z.number().optional(),
  limit: z.number().int().min(1).max(10_000).default(500),
});

/** Calls by what their end means (shared/call-classes.ts). */
export const ClassCounts = z.object({
  succeeded: z.number(),
  toolFailed: z.number(),
  callerMistake: z.number(),
  denied: z.number(),
  unanswered: z.number(),
  policyRefused: z.number(),
  refused: z.number(),
  cancelled: z.number(),
});
export type ClassCounts = z.infer<typeof ClassCounts>;

export const UsageStats = z.object({
  toolId: z.string(),
  /** Requests made: a retried call is one call. */
  calls: z.number(),
  /** Times the tool ran (every attempt, retries included; refused calls never ran). */
  attempts: z.number(),
  /** Attempts beyond each call's first. */
  retries: z.number(),
  /** Calls by how they ended. */
  outcomes: ClassCounts,
  /** Run time of the attempts that ran (refusals are not run time). */
  latencyMs: z.object({
    min: z.number(),
    mean: z.number(),
    p50: z.number(),
    p95: z.number(),
    p99: z.number(),
    max: z.number(),
  }),
  /** Histogram of attempts' run time: upper bound in ms (Infinity as null) and count. */
  buckets: z.array(z.object({ le: z.number().nullable(), count: z.number() })),
  /** Calls per minute by the minute they started, and how they ended, oldest first. */
  perMinute: z.array(ClassCounts.extend({ minute: z.number(), calls: z.number() })),
  /** The last call the tool itself failed (toolFailed), with its cleaned error text. */
  lastError: z.object({ code: ErrorCode, message: z.string(), at: z.number(), callId: z.string() }).optional(),
});
export type UsageStats = z.infer<typeof UsageStats>;

/**
 * Usage statistics and the host's span sequence number they run up to. Span events carry their own
 * number, so the UI folds in exactly the spans a report does not include yet, whatever order the
 * report and the events arrive in.
 */
export const UsageReport = z.object({ stats: z.array(UsageStats), throughSeq: z.number().int().min(0) });
export type UsageReport = z.infer<typeof UsageReport>;
