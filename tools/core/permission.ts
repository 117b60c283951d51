/**
 * ToolPermissionManager (docs/architecture.md#approval-gate): a per-session state machine for tools
 * that need a person's consent (HIGH risk or destructive). ask → allowed once | allowed for the
 * session (this tool, any arguments) | allowed on a target for the session (this tool on one
 * device, folder or host) | denied. Self-gated tools (those declaring `selfGated`, like
 * shell_execute with its own command-level gate) skip the
 * tool-level prompt so the person is not asked twice. The decider is a port: the app asks a person,
 * headless and tests inject their own.
 */
import type { ToolAnnotations } from './annotations';
import type { RiskLevel } from './metadata';
import { type ToolFailure, failure } from './result';
import type { Requester, Tool } from './tool';

/** What "approve on this target" covers: the device, the folder or the host a call acts on. */
export interface ApprovalTarget {
  kind: 'device' | 'folder' | 'host';
  value: string;
  /** How a person reads it: "device emulator-5554", "folder notes/", "host api.example.com". */
  label: string;
}

export type ApprovalAnswer = 'approve_once' | 'approve_session' | 'approve_target';

/** One way a person may approve, and what it covers in words the card and the audit show. */
export interface ApprovalChoice {
  decision: ApprovalAnswer;
  /** The button: "Approve once", "Approve app_uninstall for this session"… */
  label: string;
  /** "this call only", "app_uninstall with any arguments, for session claude#3 (client claude)"… */
  covers: string;
}

export interface ApprovalRequest {
  callId: string;
  sessionId: string;
  toolId: string;
  title: string;
  /** What will run: the parsed arguments, defaults filled in. */
  args: unknown;
  risk: RiskLevel;
  annotations: ToolAnnotations;
  requester: Requester;
  /** Fields the caller sent that the tool does not declare: shown as ignored, never used. */
  ignored?: Readonly<Record<string, unknown>>;
  /** The target "approve on this target" would cover; absent when the call names none. */
  target?: ApprovalTarget;
  /** The answers offered besides a denial; approve once alone when absent. */
  choices?: ApprovalChoice[];
  /** The approval rule that made this call ask, when one did (`#2 ask shell_execute command="rm *"`). */
  rule?: string;
  /**
   * Asked from inside a running tool that remembers an "approve for this session" itself (a
   * terminal): what such an approval covers; without it, approve once only is offered.
   */
  sessionCovers?: string;
}

export type ApprovalDecision =
  | { decision: ApprovalAnswer; decider?: string; reason?: undefined }
  | { decision: 'deny'; reason?: string; decider?: string };

/**
 * Who a denial came from: a rule (`decider: 'rule'`), the system (no one answered in time, the
 * caller left, no approver), or else a person. Only a person's is worded "the user denied".
 */
export type Denier = 'person' | 'rule' | 'system';
export function denierOf(decider: string | undefined): Denier {
  return decider === 'rule' || decider === 'system' ? decider : 'person';
}

export type ApprovalDecider = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalDecision>;

export type PermissionState = 'ask' | 'allowed_session' | 'allowed_target';

/** Ids a host also treats as self-gated; none by default: a tool says so itself (`selfGated: true`), in one place. */
export const DEFAULT_SELF_GATED: ReadonlySet<string> = new Set<string>();

export function needsApproval(tool: Pick<Tool, 'metadata'>): boolean {
  return tool.metadata.risk === 'HIGH' || tool.metadata.annotations.destructiveHint;
}

/** The key a target grant is kept under, per session: the tool and the target. */
function targetKey(toolId: string, target: ApprovalTarget): string {
  return `${toolId}\u0000${target.kind}\u0000${target.value}`;
}

export class ToolPermissionManager {
  /** Per session: tool ids approved with any arguments, and tool-on-target keys. */
  private readonly allowed = new Map<string, Set<string>>();

  constructor(
    private readonly decide: ApprovalDecider,
    private readonly selfGatedIds: ReadonlySet<string> = DEFAULT_SELF_GATED,
  ) {}

  state(sessionId: string, toolId: string, target?: ApprovalTarget): PermissionState {
    const granted = this.allowed.get(sessionId);
    if (granted === undefined) return 'ask';
    if (granted.has(toolId)) return 'allowed_session';
    return target !== undefined && granted.has(targetKey(toolId, target)) ? 'allowed_target' : 'ask';
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
    if (this.state(request.sessionId, tool.id, request.target) !== 'ask') return undefined;
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
    return this.apply(tool, request.sessionId, answer, request.target);
  }

  /**
   * The state transition for a decision already obtained (by `check`'s decider, or by a gate that
   * asked the person itself, with its own timeout): approve-for-session and approve-on-target are
   * remembered for the session, approve-once passes, deny refuses with the person's reason. An
   * approval on a target for a call that names none counts as once.
   */
  apply(
    tool: Pick<Tool, 'id'>,
    sessionId: string,
    answer: ApprovalDecision,
    target?: ApprovalTarget,
  ): ToolFailure | undefined {
    if (answer.decision === 'approve_session' || (answer.decision === 'approve_target' && target !== undefined)) {
      let set = this.allowed.get(sessionId);
      if (!set) this.allowed.set(sessionId, (set = new Set()));
      set.add(answer.decision === 'approve_session' ? tool.id : targetKey(tool.id, target as ApprovalTarget));
      return undefined;
    }
    if (answer.decision === 'approve_target') return undefined;
    if (answer.decision === 'approve_once') return undefined;
    const reason = answer.reason?.trim();
    return failure('PERMISSION_DENIED', `The user denied '${tool.id}'${reason ? `: ${reason}` : '.'}`, {
      data: reason ? { reason } : {},
    });
  }
}
