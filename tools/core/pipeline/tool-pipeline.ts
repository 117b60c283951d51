/**
 * ToolPipeline: runs a call through the stages create-pipeline.ts composes (docs/architecture.md
 * #the-pipeline). It looks the tool up (an unknown id is NOT_FOUND with near names, before any
 * stage and without a span; so is a tool outside the call's scope, its session's toolsets), runs
 * the stages, and writes the call down once: a call refused before any attempt is one span with
 * attempt 0 (a call that ran has one span per attempt, made by the retry stage), and usage counts
 * the whole call less the time spent waiting for a person.
 * Every refusal and failure is a ToolResult, never an exception.
 */
import { newCallId } from '../call-ids';
import { DEFAULT_SESSION, type ToolExecutor, thrownToResult, unknownToolResult } from '../executor';
import type { ToolRegistry } from '../registry';
import type { ToolResult } from '../result';
import type { Requester, ToolCall } from '../tool';
import type { ToolTraceRecorder } from '../trace/trace-recorder';
import type { ToolUsageTracker } from '../usage-tracker';
import { recordRefusal, spanBase } from './call-trace';
import { type Clock, systemClock } from './clock';
import { type Next, type PipelineCall, type Stage, composeStages } from './pipeline-call';
import { type RunPolicyResolver, v2Policies } from './run-policy';
import type { ToolScope } from './tool-scope';

export interface ToolPipelineOptions {
  /** Which tools a session may reach (the host's MCP sessions and their toolsets); without it, every tool. */
  scope?: ToolScope;
  /** Which run policy a tool gets; without it every tool runs as under v2 (no timeout, no retry). */
  policies?: RunPolicyResolver;
  trace?: ToolTraceRecorder;
  usage?: ToolUsageTracker;
  clock?: Clock;
}

const INTERNAL: Requester = Object.freeze({ kind: 'internal' });

export class ToolPipeline implements ToolExecutor {
  private readonly run: Next;
  private readonly scope: ToolScope | undefined;
  private readonly policies: RunPolicyResolver;
  private readonly trace: ToolTraceRecorder | undefined;
  private readonly usage: ToolUsageTracker | undefined;
  private readonly clock: Clock;

  constructor(
    private readonly registry: ToolRegistry,
    stages: readonly Stage[],
    options: ToolPipelineOptions = {},
  ) {
    this.run = composeStages(stages);
    this.scope = options.scope;
    this.policies = options.policies ?? v2Policies;
    this.trace = options.trace;
    this.usage = options.usage;
    this.clock = options.clock ?? systemClock;
  }

  async execute(call: ToolCall): Promise<ToolResult> {
    const lookup = this.registry.lookup(call.toolId);
    if (!lookup.found) return unknownToolResult(call.toolId, lookup.suggestions);
    const tool = lookup.tool;
    // Out of scope reads as not found: nothing ran, so no span and no usage.
    const outOfScope = this.scope?.refuse(tool, call);
    if (outOfScope) return outOfScope;
    const c: PipelineCall = {
      tool,
      call,
      callId: call.callId ?? newCallId(),
      sessionId: call.sessionId ?? DEFAULT_SESSION,
      requester: call.requester ?? INTERNAL,
      pipeline: this,
      policy: this.policies(tool),
      started: this.clock.now(),
      args: call.args,
      ignored: undefined,
      digest: undefined,
      span: undefined,
      texts: undefined,
      attempt: 0,
      noted: undefined,
      note: undefined,
      ended: false,
      personWaitMs: 0,
      attemptWaitMs: 0,
      decidedBy: undefined,
      timer: undefined,
    };
    if (this.trace !== undefined) c.span = spanBase(c);
    let result: ToolResult;
    try {
      result = await this.run(c);
    } catch (e) {
      result = thrownToResult(tool.id, e);
    }
    if (!result.ok && c.attempt === 0 && this.trace !== undefined) recordRefusal(this.trace, c, result);
    this.usage?.record(tool.id, this.clock.now() - c.started - c.personWaitMs, result.ok ? undefined : result.error);
    return result;
  }
}
