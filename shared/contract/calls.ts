/**
 * One call as the Traces detail tells it: how it ended, its breaker and approval, its remembered
 * arguments, and the bug report. Part of the contract (shared/contract.ts).
 */
import { z } from 'zod';
import { CALL_CLASSES } from '../call-classes';
import { Annotations, CallOutcome, Risk } from './tools';
import { Span } from './traces';
import { BreakerStateName, BreakerTransition } from './breakers';
import { AuditEntry, Requester } from './approvals';

export const CallClassName = z.enum(CALL_CLASSES);

/** A breaker of the call's tool around the time of the call. */
export const BreakerAtCall = z.object({
  key: z.string(),
  target: z.string().optional(),
  /** This is the call's own breaker (its target is known), not just one of its tool's. */
  exact: z.boolean(),
  atStart: BreakerStateName,
  /** Right after the call, its own outcome included (five failures in a row open it). */
  atEnd: BreakerStateName,
  /** Its transitions from an hour before the call to a minute after it. */
  transitions: z.array(BreakerTransition),
});
export type BreakerAtCall = z.infer<typeof BreakerAtCall>;

/** What the host remembers of a call while it runs: kept in memory only, never written or exported. */
export const RememberedCall = z.object({
  args: z.unknown(),
  /** Why the arguments were not kept although the call is remembered. */
  argsDropped: z.enum(['too-large', 'not-json']).optional(),
  sessionId: z.string(),
  requester: Requester,
  at: z.number(),
  replayOf: z.string().optional(),
  /** Calls that ran this one again. */
  replays: z.array(z.string()),
});
export type RememberedCall = z.infer<typeof RememberedCall>;

/**
 * One call's story: its attempts, the calls it started, its breaker and approval, and (while remembered) its arguments.
 */
export const CallDetail = z.object({
  callId: z.string(),
  spans: z.array(Span),
  /** Spans of the calls this one started (batch or shortcut steps). */
  nested: z.array(Span),
  callClass: CallClassName.optional(),
  /** The hint the caller read (while the host remembers the call), else the default hint of its code. */
  hint: z.object({ text: z.string(), source: z.enum(['call', 'default']) }).optional(),
  breakers: z.array(BreakerAtCall),
  /** Approval decisions about this call (the tool's, its shell commands'), oldest first. */
  approvals: z.array(AuditEntry),
  memory: RememberedCall.optional(),
});
export type CallDetail = z.infer<typeof CallDetail>;

export const ReplayResult = z.object({ ok: z.boolean(), message: z.string(), outcome: CallOutcome.optional() });
export type ReplayResult = z.infer<typeof ReplayResult>;

/** A bug report of one call, in one file: everything but argument text. */
export const CallReport = z.object({
  format: z.literal('toolgate-call-report/1'),
  exportedAt: z.number(),
  note: z.string(),
  host: z.object({
    version: z.string(),
    mode: z.string(),
    startedAt: z.number(),
    node: z.string(),
    platform: z.string(),
    arch: z.string(),
    electron: z.string().optional(),
    playwright: z.string().optional(),
  }),
  tool: z.object({
    id: z.string(),
    registered: z.boolean(),
    title: z.string().optional(),
    category: z.string().optional(),
    risk: Risk.optional(),
    annotations: Annotations.optional(),
    selfGated: z.boolean().optional(),
    runPolicy: z.string().optional(),
    /** A digest of the tool's input schema: it changes when the tool's contract does. */
    schemaDigest: z.string().optional(),
  }),
  call: z.object({
    callId: z.string(),
    toolId: z.string(),
    sessionId: z.string().optional(),
    requesterKind: z.string().optional(),
    parentCallId: z.string().optional(),
    startedAt: z.number().optional(),
    endedAt: z.number().optional(),
    attempts: z.number(),
    callClass: CallClassName.optional(),
    replayOf: z.string().optional(),
  }),
  spans: z.array(Span),
  nested: z.array(Span),
  breakers: z.array(BreakerAtCall),
  approvals: z.array(AuditEntry),
  environment: z.object({
    recordedAt: z.number().optional(),
    readings: z.array(z.object({ key: z.string(), value: z.unknown(), ageMs: z.number() })),
    note: z.string().optional(),
  }),
});
export type CallReport = z.infer<typeof CallReport>;
