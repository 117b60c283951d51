/**
 * A terminal's own approvals, asked through the host's approval port (the same queue, timeout and
 * audit as every other approval). Two grants last for an MCP session: "this terminal" (every key and
 * command sent to it, refused commands still refused) and "this command on this terminal". A
 * session label is never reused while the host runs, so a grant cannot pass to another client, and
 * a reconnected client asks again.
 */
import { type ApprovalDecision, type ApprovalRequest, type Denier, denierOf } from '../core/permission';
import { ToolCallError } from '../core/result';
import type { Tool, ToolContext } from '../core/tool';

/** The span's slug for each kind of denial: only `terminal-denied` counts as a person's (shared/call-classes.ts). */
const DENIAL_SLUG: Readonly<Record<Denier, string>> = {
  person: 'terminal-denied',
  rule: 'terminal-rule-denied',
  system: 'terminal-unanswered',
};

export type TerminalApprover = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalDecision>;

export interface AskSpec {
  tool: Tool;
  ctx: ToolContext;
  title: string;
  /** Shown to the person on the approval card (never traced: the audit keeps its digest). */
  args: Record<string, unknown>;
  /** What an "approve for the session" covers. */
  grant: { terminal: string } | { terminal: string; command: string } | { action: string };
  /** Why it needs a person, for the denial message. */
  what: string;
}

export class TerminalApprovals {
  private readonly granted = new Set<string>();

  constructor(private readonly approve: TerminalApprover | undefined) {}

  private key(sessionId: string, grant: AskSpec['grant']): string {
    if ('action' in grant) return `${sessionId}\naction\n${grant.action}`;
    if ('command' in grant) return `${sessionId}\ncommand\n${grant.terminal}\n${grant.command}`;
    return `${sessionId}\nterminal\n${grant.terminal}`;
  }

  /** The person let this session drive this terminal without asking. */
  terminalGranted(sessionId: string, terminal: string): boolean {
    return this.granted.has(this.key(sessionId, { terminal }));
  }

  /** Resolves when the person approves (or approved for the session); throws PERMISSION_DENIED otherwise. */
  async ask(spec: AskSpec): Promise<void> {
    const { ctx, tool } = spec;
    const key = this.key(ctx.sessionId, spec.grant);
    if (this.granted.has(key)) return;
    if ('command' in spec.grant && this.terminalGranted(ctx.sessionId, spec.grant.terminal)) return;
    if (!this.approve)
      throw new ToolCallError(
        'PERMISSION_DENIED',
        `${spec.what} needs a person's approval, and no approver is connected.`,
        {
          hint: 'Use a sandbox terminal, which needs no approval, or ask the user to do it.',
          data: { gate: 'terminal', decision: 'deny', slug: 'terminal-no-approver' },
        },
      );
    let decision: ApprovalDecision;
    try {
      decision = await this.approve(
        {
          callId: ctx.callId,
          sessionId: ctx.sessionId,
          toolId: tool.id,
          title: spec.title,
          args: spec.args,
          risk: 'HIGH',
          annotations: tool.metadata.annotations,
          requester: ctx.requester,
          sessionCovers: grantWords(spec),
        },
        ctx.signal,
      );
    } catch (e) {
      throw new ToolCallError(
        'PERMISSION_DENIED',
        `The approval could not be obtained: ${e instanceof Error ? e.message : String(e)}`,
        { data: { gate: 'terminal', decision: 'deny', slug: DENIAL_SLUG.system } },
      );
    }
    if (decision.decision === 'approve_session') {
      this.granted.add(key);
      return;
    }
    if (decision.decision === 'approve_once') return;
    const reason = decision.reason?.trim();
    // Only a person's answer is "the user denied": no answer in time, or a rule, is said as such.
    const who = denierOf(decision.decider);
    const why = reason ? ` (${reason})` : '';
    const message = who === 'person' ? `The user denied it: ${spec.what}${why}.` : `Not approved: ${spec.what}${why}.`;
    throw new ToolCallError('PERMISSION_DENIED', message, {
      hint:
        who === 'person'
          ? 'Do not retry the same thing; change your approach or ask the user what they want instead.'
          : who === 'rule'
            ? 'An approval rule the user set refuses this; do not retry it, ask the user if it is really needed.'
            : 'Nobody answered the approval in time; ask the user to watch for it before retrying, or change approach.',
      data: { gate: 'terminal', decision: 'deny', slug: DENIAL_SLUG[who], ...(reason ? { reason } : {}) },
    });
  }

  /** Forgets every grant of a closed terminal. */
  forgetTerminal(terminal: string): void {
    for (const key of [...this.granted]) {
      const parts = key.split('\n');
      if ((parts[1] === 'terminal' || parts[1] === 'command') && parts[2] === terminal) this.granted.delete(key);
    }
  }
}

/** What an "approve for the session" of this ask covers, in the words the card shows. */
function grantWords(spec: AskSpec): string {
  const { grant } = spec;
  if ('action' in grant) return `the same request again (${spec.title})`;
  if ('command' in grant) {
    const shown = grant.command.length > 80 ? `${grant.command.slice(0, 77)}…` : grant.command;
    return `the command line \`${shown}\` on terminal ${grant.terminal}`;
  }
  return `every key and command sent to terminal ${grant.terminal} (commands the gate refuses stay refused)`;
}
