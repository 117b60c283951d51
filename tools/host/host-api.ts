/**
 * The contract's methods (shared/contract.ts) implemented over the host's parts. The same object
 * serves HTTP (/api/rpc/*) and Electron IPC, so the UI sees one API in both shells.
 */
import type {
  BreakerView,
  CallOutcome,
  ClientToken,
  HostEvent,
  HostInfo,
  ReplayResult,
  Span,
  ToolSummary,
} from '../../shared/contract';
import type { FamilyHandles } from './families';
import type { TraceSpan } from '../core/trace-span';
import { HostSettings } from './host-settings';
import type { ToolExecutor } from '../core/executor';
import type { ToolRegistry } from '../core/registry';
import { type ToolResult, renderResult } from '../core/result';
import type { Tool } from '../core/tool';
import { type Pipeline, describeLastError, parseBreakerKey } from '../core/pipeline';
import { newCallId } from '../core/call-ids';
import { type ShortcutDefinition, type ShortcutStore, suggestShortcuts } from '../orchestration';
import { approvalApi } from './approval-api';
import type { ApprovalQueue } from './approval-queue';
import type { ClientTokenInfo, ClientTokens } from './auth/client-tokens';
import { type HostApiHandlers, InputRefusedError } from './http/rpc-dispatch';
import type { ApprovalRuleStore } from './store/approval-rule-store';
import type { AuditStore } from './store/audit-store';
import type { BreakerStore } from './store/breaker-store';
import type { SpanStore } from './store/span-store';
import { TERMINALS_PAGE } from '../terminal';
import { usageFromSpans } from './usage-report';
import { checkToolsetNames, toolsetSummaries } from './toolsets/toolset-views';
import { catalogApi } from './catalog-api';
import type { CallMemory } from './call-memory';
import type { CallStories } from './call-story';
import { keysWithReadings } from './precondition-keys';

export interface HostApiDeps {
  /** Spans for shortcut suggestions, oldest first (the same source the shortcut_list tool mines). */
  recentSpans: () => TraceSpan[];
  settings: HostSettings;
  surfaces: Pick<FamilyHandles, 'deviceSurface' | 'browserSurface' | 'skills' | 'github' | 'terminalSurface'>;
  emit: (event: HostEvent) => void;
  info: () => HostInfo;
  registry: ToolRegistry;
  executor: ToolExecutor;
  pipeline: Pipeline;
  approvals: ApprovalQueue;
  spans: SpanStore;
  audit: AuditStore;
  approvalRules: ApprovalRuleStore;
  breakerStore: BreakerStore;
  /** Recent calls' arguments (memory only), for replay. */
  memory: CallMemory;
  stories: CallStories;
  /** The telemetry keys the host has now, for the Shortcuts page's precondition help. */
  telemetryKeys: () => string[];
  shortcuts: ShortcutStore;
  /** Sequence number of the newest span event (HostEvents.spanSeq). */
  spanSeq: () => number;
  clientTokens: ClientTokens;
  /** Open MCP sessions of a client. */
  openSessions: (clientId: string) => number;
  now?: () => number;
}

export const UI_SESSION = 'ui';
const NO_TERMINALS = 'The terminal tools are not available in this host.';

export function toolSummary(t: Tool, toolset?: string): ToolSummary {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    category: t.metadata.category,
    risk: t.metadata.risk,
    tags: t.metadata.tags,
    annotations: t.metadata.annotations,
    selfGated: t.selfGated,
    inputSchema: t.inputSchema,
    ...(toolset ? { toolset } : {}),
  };
}

export function callOutcome(callId: string, result: ToolResult): CallOutcome {
  const rendered = renderResult(result);
  if (result.ok)
    return {
      callId,
      ok: true,
      content: result.content,
      ...(result.structured !== undefined ? { structured: result.structured } : {}),
      rendered,
    };
  return { callId, ok: false, content: [{ type: 'text', text: rendered }], error: result.error, rendered };
}

type UpperState = BreakerView['state'];
/** The pipeline names states in lower case; the UI shows the seed's CLOSED / OPEN / HALF_OPEN. */
export function upperState(state: string): UpperState {
  const upper = state.toUpperCase();
  return upper === 'OPEN' || upper === 'HALF_OPEN' ? upper : 'CLOSED';
}

export function createHostApi(deps: HostApiDeps): HostApiHandlers {
  const now = deps.now ?? Date.now;

  const callAsUi = async (toolId: string, args: unknown, label: string): Promise<CallOutcome> => {
    const callId = newCallId();
    const result = await deps.executor.execute({
      toolId,
      args,
      callId,
      sessionId: UI_SESSION,
      requester: { kind: 'ui', label },
    });
    return callOutcome(callId, result);
  };

  const replay = async (callId: string): Promise<ReplayResult> => {
    const remembered = deps.memory.get(callId);
    if (!remembered)
      return {
        ok: false,
        message:
          `The arguments of call ${callId} are no longer in memory (the host restarted, or it is older than ` +
          'the calls the host keeps), so it cannot be run again. Open the tool in Try it and enter them.',
      };
    if (remembered.args === undefined) {
      const tooLarge = 'were too large to keep in memory, so it cannot be run again from here';
      return { ok: false, message: `The arguments of call ${callId} ${tooLarge}.` };
    }
    const replayId = newCallId();
    const result = await deps.executor.execute({
      toolId: remembered.toolId,
      args: remembered.args,
      callId: replayId,
      sessionId: UI_SESSION,
      requester: { kind: 'replay', id: callId, label: `Replay of ${callId}` },
    });
    const ended = result.ok ? 'it succeeded' : `it failed with ${result.error.code}`;
    return {
      ok: true,
      message: `Ran call ${callId} again as call ${replayId}: ${ended}.`,
      outcome: callOutcome(replayId, result),
    };
  };

  const tokenView = (c: ClientTokenInfo): ClientToken => ({
    id: c.id,
    name: c.name,
    createdAt: c.createdAt,
    hint: c.hint,
    isDefault: c.isDefault,
    openSessions: deps.openSessions(c.id),
    toolsets: [...c.toolsets],
  });

  const breakerViews = (): BreakerView[] => {
    const live = new Map((deps.pipeline.breakers?.states() ?? []).map((v) => [v.toolId, v]));
    const ids = new Set([...live.keys(), ...deps.breakerStore.toolsWithTransitions()]);
    return [...ids].sort().map((toolId) => {
      const v = live.get(toolId) ?? deps.pipeline.breakers?.state(toolId);
      const transitions = deps.breakerStore
        .timeline(toolId)
        .map((t) => ({ ...t, from: upperState(t.from), to: upperState(t.to) }));
      const { target } = parseBreakerKey(toolId);
      // The target's name, held in this process's memory only, for the person (breaker-labels.ts).
      const label = target !== undefined ? deps.pipeline.breakerLabels?.labelOf(toolId) : undefined;
      const view: BreakerView = {
        toolId,
        ...(target !== undefined ? { target } : {}),
        ...(label !== undefined ? { label } : {}),
        state: upperState(v?.state ?? 'closed'),
        consecutiveFailures: v?.consecutiveFailures ?? 0,
        cooldownRemainingMs: v?.cooldownRemainingMs ?? 0,
        transitions,
      };
      if (v && v.state === 'open') view.probeAt = now() + v.cooldownRemainingMs;
      // Code and slug only: a breaker is shared by every session, an error message is the caller's.
      if (v?.lastError) view.lastError = describeLastError(v.lastError);
      return view;
    });
  };

  return {
    info: () => deps.info(),
    listTools: () => deps.registry.list().map((t) => toolSummary(t, deps.registry.toolsetOf(t.id)?.name)),
    listToolsets: () => toolsetSummaries(deps.registry, deps.clientTokens.list()),
    callTool: ({ toolId, args }) => callAsUi(toolId, args, 'Try it'),
    listSpans: (q) => deps.spans.query(q) as Span[],
    exportSpans: (q) => ({ exportedAt: now(), spans: deps.spans.query(q) as Span[] }),
    callDetail: ({ callId }) => deps.stories.detail(callId),
    replayCall: ({ callId }) => replay(callId),
    callReport: ({ callId }) => deps.stories.report(callId),
    usage: ({ toolId }) => {
      const throughSeq = deps.spanSeq(); // read first: the query below holds at least these spans
      return {
        stats: usageFromSpans(deps.spans.usageSpans({ limit: 10_000, ...(toolId ? { toolId } : {}) }), now()),
        throughSeq,
      };
    },
    breakers: () => breakerViews(),
    resetBreaker: ({ toolId }) => {
      deps.pipeline.breakers?.reset(toolId);
      return { ok: true };
    },
    ...approvalApi({
      approvals: deps.approvals,
      audit: deps.audit,
      rules: deps.approvalRules,
      registry: deps.registry,
    }),
    shortcuts: () => {
      const defined = deps.shortcuts.list();
      const suggestions = suggestShortcuts(deps.recentSpans(), {
        defined,
        limit: 20,
        sameArgument: (a, b, field) => deps.memory.sameArgument(a, b, field),
      });
      return {
        defined: defined as never,
        suggestions: suggestions as never,
        preconditionKeys: keysWithReadings(deps.telemetryKeys()),
      };
    },
    defineShortcut: (def) => callAsUi('shortcut_define', def as ShortcutDefinition, 'Define shortcut'),
    devices: () => deps.surfaces.deviceSurface?.list() ?? [],
    deviceTap: ({ serial, x, y }) => callAsUi('ui_tap', { serial, x, y }, 'Live screen'),
    deviceSwipe: ({ serial, x1, y1, x2, y2, durationMs }) =>
      callAsUi('ui_swipe', { serial, x1, y1, x2, y2, durationMs }, 'Live screen'),
    deviceLogcat: async ({ serial, lines }) => ({
      lines: deps.surfaces.deviceSurface ? await deps.surfaces.deviceSurface.logcat(serial, lines) : [],
    }),
    browser: () => deps.surfaces.browserSurface?.view() ?? { started: false, tabs: [], recentActions: [] },
    browserScreen: async ({ on }) =>
      deps.surfaces.browserSurface
        ? deps.surfaces.browserSurface.screen(on, (url, frame) => deps.emit({ type: 'browser-frame', url, frame }))
        : { ok: false, message: 'The browser tools are not available in this host.' },
    getSettings: () => ({ settings: deps.settings.current(), restartRequired: [...HostSettings.restartRequired] }),
    updateSettings: ({ changes }) => ({
      settings: deps.settings.update(changes),
      restartRequired: [...HostSettings.restartRequired],
    }),
    terminals: () => deps.surfaces.terminalSurface?.list() ?? [],
    terminalScreen: ({ id }) => deps.surfaces.terminalSurface?.screen(id) ?? { data: '', from: 0, to: 0, runs: [] },
    terminalControl: ({ id, on }) =>
      deps.surfaces.terminalSurface?.control(id, on) ?? { ok: false, message: NO_TERMINALS },
    terminalInput: async ({ id, data }) => {
      if (!deps.surfaces.terminalSurface?.personControls(id)) {
        const callId = newCallId();
        return callOutcome(callId, {
          ok: false,
          error: {
            code: 'EXECUTION_FAILED',
            message: 'Take control of the terminal first; it is read-only until you do.',
            hint: 'Press "Take control" above the terminal.',
          },
        });
      }
      return callAsUi('terminal.write', { id, data, literal: true }, TERMINALS_PAGE);
    },
    clientTokens: () => deps.clientTokens.list().map(tokenView),
    createClientToken: ({ name, toolsets }) => {
      const checked = toolsets ? checkToolsetNames(deps.registry, toolsets) : undefined;
      if (checked && !checked.ok) throw new InputRefusedError(['toolsets'], checked.message);
      const { client, token } = deps.clientTokens.create(name, checked?.toolsets);
      return { client: tokenView(client), token };
    },
    setClientToolsets: ({ id, toolsets }) => {
      const checked = checkToolsetNames(deps.registry, toolsets);
      if (!checked.ok) return { ok: false, message: checked.message };
      const client = deps.clientTokens.setToolsets(id, checked.toolsets);
      if (!client) return { ok: false, message: 'No such client (its token was revoked?).' };
      return {
        ok: true,
        message: `Client '${client.name}' may now use: ${client.toolsets.join(', ') || 'only the toolset tools'}.`,
      };
    },
    revokeClientToken: ({ id }) => {
      if (id === 'default')
        return {
          ok: false,
          message: "The default token is the data dir's (the stdio bridge reads it); replace that file to change it.",
        };
      const ok = deps.clientTokens.revoke(id);
      return { ok, message: ok ? 'Token revoked; its sessions are closed.' : 'No such token (already revoked?).' };
    },
    ...catalogApi(deps.surfaces.skills, deps.surfaces.github),
  };
}
