/**
 * Circuit breakers as the UI shows them: state, failures, cooldown, transitions. Part of the contract
 * (shared/contract.ts).
 */
import { z } from 'zod';

export const BreakerStateName = z.enum(['CLOSED', 'OPEN', 'HALF_OPEN']);
export const BreakerTransition = z.object({
  toolId: z.string(),
  from: BreakerStateName,
  to: BreakerStateName,
  at: z.number(),
  cause: z.string(),
});
export type BreakerTransition = z.infer<typeof BreakerTransition>;
export const BreakerView = z.object({
  /** The breaker's key: the tool id, or `toolId@<digest>` for one target of a tool that keeps a breaker per target. */
  toolId: z.string(),
  /** For a per-target breaker: the short digest naming the target, as it is kept and stored. */
  target: z.string().optional(),
  /**
   * The target itself (a host, a phone), for the person only: held in the host process's memory,
   * never stored or exported; absent after a restart, or once many other targets were used since.
   */
  label: z.string().optional(),
  state: BreakerStateName,
  consecutiveFailures: z.number(),
  /** When OPEN: ms until the probe is admitted. */
  cooldownRemainingMs: z.number(),
  probeAt: z.number().optional(),
  lastError: z.string().optional(),
  transitions: z.array(BreakerTransition),
});
export type BreakerView = z.infer<typeof BreakerView>;
