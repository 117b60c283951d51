/**
 * ToolPermissionManager (docs/architecture.md#approval-gate): a per-session state machine for tools
 * that need a person's consent (HIGH risk or destructive). ask → allowed once | allowed for the
 * session | denied. Self-gated tools (those declaring `selfGated`, like shell_execute with its own command-level gate) skip the
 * tool-level prompt so the person is not asked twice. The decider is a port: the app asks a person,
 * headless and tests inject their own.
 */
import type { ToolAnnotations } from './annotations';
import type { RiskLevel } from './metadata';
import { type ToolFailure, failure } from './result';
import type { Requester, Tool } from './tool';

export interface ApprovalRequest {
  callId: string;
  sessionId: string;
  toolId: string;
  title: string;
  args: unknown;
  risk: RiskLevel;
  annotations: ToolAnnotations;
  requester: Requester;
}

export type ApprovalDecision =
  | { decision: 'approve_once'; decider?: string }
  | { decision: 'approve_session'; decider?: string }
  | { decision: 'deny'; reason?: string; decider?: string };

export type ApprovalDecider = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalDecision>;

export type PermissionState = 'ask' | 'allowed_session';

/** Ids a host also treats as self-gated; none by default: a tool says so itself (`selfGated: true`), in one place. */
export const DEFAULT_SELF_GATED: ReadonlySet<string> = new Set<string>();

export function needsApproval(tool: Pick<Tool, 'metadata'>): boolean {
  return tool.metadata.risk === 'HIGH' || tool.metadata.annotations.destructiveHint;
}

export class ToolPermissionManager {
  private readonly allowed = new Map<string, Set<string>>();

  constructor(
    private readonly decide: ApprovalDecider,
    private readonly selfGatedIds: ReadonlySet<string> = DEFAULT_SELF_GATED,
  ) {}

  state(sessionId: string, toolId: string): PermissionState {
    return this.allowed.get(sessionId)?.has(toolId) ? 'allowed_session' : 'ask';
  }

  /** Forgets every session-wide approval of a session (it ended). */
  endSession(sessionId: string): void {
    this.allowed.delete(sessionId);
  }

  isSelfGated(tool: Tool): boolean {
    return tool.selfGated || this.selfGatedIds.has(tool.id);
  }

  /** undefined when the call may run; a PERMISSION_DENIED result when it may not. */
  async check(
    tool: Tool,
    request: Omit<ApprovalRequest, 'toolId' | 'title' | 'risk' | 'annotations'>,
    signal?: AbortSignal,
  ): Promise<ToolFailure | undefined> {
    if (this.isSelfGated(tool) || !needsApproval(tool)) return undefined;
    if (this.state(request.sessionId, tool.id) === 'allowed_session') return undefined;
    let answer: ApprovalDecision;
    try {
      answer = await this.decide(
        {
          ...request,
          toolId: tool.id,
          title: tool.title,
          risk: tool.metadata.risk,
          annotations: tool.metadata.annotations,
        },
        signal,
      );
    } catch (e) {
      return failure('PERMISSION_DENIED', `Approval for '${tool.id}' could not be obtained: ${(e as Error).message}`);
    }
    return this.apply(tool, request.sessionId, answer);
  }

  /**
   * The state transition for a decision already obtained (by `check`'s decider, or by a gate that
   * asked the person itself, with its own timeout): approve-for-session is remembered, approve-once
   * passes, deny refuses with the person's reason.
   */
  apply(tool: Pick<Tool, 'id'>, sessionId: string, answer: ApprovalDecision): ToolFailure | undefined {
    if (answer.decision === 'approve_session') {
      let set = this.allowed.get(sessionId);
      if (!set) this.allowed.set(sessionId, (set = new Set()));
      set.add(tool.id);
      return undefined;
    }
    if (answer.decision === 'approve_once') return undefined;
    const reason = answer.reason?.trim();
    return failure('PERMISSION_DENIED', `The user denied '${tool.id}'${reason ? `: ${reason}` : '.'}`, {
      data: reason ? { reason } : {},
    });
  }
}
