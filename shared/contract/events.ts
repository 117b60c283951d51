/** The events the host pushes to the UI. Part of the contract (shared/contract.ts). */
import { z } from 'zod';
import { Span } from './traces';
import { BreakerTransition } from './breakers';
import { PendingApproval } from './approvals';
import { ScreenFrame, TerminalRunMark } from './surfaces';

export const HostEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('span'), span: Span, seq: z.number().int().min(1) }),
  z.object({ type: z.literal('breaker'), transition: BreakerTransition }),
  z.object({ type: z.literal('approval-pending'), approval: PendingApproval }),
  z.object({ type: z.literal('approval-decided'), approvalId: z.string(), decision: z.string() }),
  /** A decision was written to the audit log (a person's, a rule's, a withdrawal). */
  z.object({ type: z.literal('approval-audited'), toolId: z.string(), decision: z.string() }),
  z.object({ type: z.literal('tools-changed') }),
  /** A skill was installed, removed, enabled or disabled. */
  z.object({ type: z.literal('skills-changed') }),
  z.object({ type: z.literal('devices-changed') }),
  z.object({ type: z.literal('browser-changed') }),
  z.object({ type: z.literal('browser-frame'), url: z.string(), frame: ScreenFrame }),
  /** The desktop shell asks the page to open a waiting call's card (its notification was clicked). */
  z.object({ type: z.literal('open-approval'), approvalId: z.string() }),
  /**
   * A terminal's output: the bytes from `from` to `to` of its output, as text; a gap means: fetch terminalScreen again.
   */
  z.object({
    type: z.literal('terminal-output'),
    id: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    data: z.string(),
    /** The agent's runs whose line starts in these bytes. */
    runs: z.array(TerminalRunMark),
  }),
  /** A terminal opened, closed, ended, changed hands or ran a command: refetch the list. */
  z.object({ type: z.literal('terminals-changed') }),
  /** browser_show: the agent asks the person to look at the mirrored page. */
  z.object({ type: z.literal('browser-show'), url: z.string().optional(), reason: z.string().optional() }),
]);
export type HostEvent = z.infer<typeof HostEvent>;
