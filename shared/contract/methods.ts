/**
 * The methods: name → input and output schemas, and the types derived from them. Part of the contract
 * (shared/contract.ts).
 */
import { z } from 'zod';
import type { MethodNameFromList } from '../method-names';
import { CallOutcome, HostInfo, ToolSummary, ToolsetNames, ToolsetSummary } from './tools';
import { Span, SpanQuery, UsageReport } from './traces';
import { BreakerView } from './breakers';
import { ApprovalRule, AuditEntry, DecideInput, PendingApproval, RuleEffect } from './approvals';
import { CallDetail, CallReport, ReplayResult } from './calls';
import { ShortcutDefinition, ShortcutSuggestion } from './shortcuts';
import { BrowserView, DeviceView, TerminalRunMark, TerminalView } from './surfaces';
import { ClientToken, ClientTokenName } from './clients';
import { Settings } from './settings';
import { SkillView } from './skills';
import { GithubStatus } from './github';

/**
 * Methods: name → input and output schemas. The preload, the IPC handlers and the HTTP routes are all derived from this
 * map.
 */
export const contract = {
  info: { input: z.object({}), output: HostInfo },
  listTools: { input: z.object({}), output: z.array(ToolSummary) },
  /** The toolsets, their cost in a tools/list answer, and which clients have each. */
  listToolsets: { input: z.object({}), output: z.array(ToolsetSummary) },
  callTool: {
    input: z.object({ toolId: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }),
    output: CallOutcome,
  },
  listSpans: { input: SpanQuery, output: z.array(Span) },
  exportSpans: { input: SpanQuery, output: z.object({ exportedAt: z.number(), spans: z.array(Span) }) },
  /** One call's whole story for the Traces detail; its arguments only while the host remembers them. */
  callDetail: { input: z.object({ callId: z.string().min(1) }), output: CallDetail },
  /** Runs a remembered call again with the same arguments, through the pipeline, as a replay by the person. */
  replayCall: { input: z.object({ callId: z.string().min(1) }), output: ReplayResult },
  /** A bug report of one call as one JSON document, without argument text. */
  callReport: { input: z.object({ callId: z.string().min(1) }), output: CallReport },
  usage: { input: z.object({ toolId: z.string().optional() }), output: UsageReport },
  breakers: { input: z.object({}), output: z.array(BreakerView) },
  resetBreaker: { input: z.object({ toolId: z.string().min(1) }), output: z.object({ ok: z.boolean() }) },
  pendingApprovals: { input: z.object({}), output: z.array(PendingApproval) },
  decideApproval: { input: DecideInput, output: z.object({ ok: z.boolean(), message: z.string() }) },
  auditLog: { input: z.object({ limit: z.number().int().min(1).max(5000).default(200) }), output: z.array(AuditEntry) },
  /** The person's approval rules, applied before anyone is asked (deny beats ask beats allow). */
  approvalRules: { input: z.object({}), output: z.array(ApprovalRule) },
  /** Adds a rule written as `tool field=pattern …`; refused with a message when it does not parse. */
  addApprovalRule: {
    input: z.object({ effect: RuleEffect, rule: z.string().min(1).max(2000), note: z.string().max(500).optional() }),
    output: z.object({ ok: z.boolean(), message: z.string(), rule: ApprovalRule.optional() }),
  },
  removeApprovalRule: {
    input: z.object({ id: z.number().int() }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  shortcuts: {
    input: z.object({}),
    output: z.object({
      defined: z.array(ShortcutDefinition),
      suggestions: z.array(ShortcutSuggestion),
      /**
       * The telemetry keys a precondition may name, with what each means, and the ones the host has a reading for now.
       */
      preconditionKeys: z.array(z.object({ key: z.string(), meaning: z.string(), current: z.array(z.string()) })),
    }),
  },
  defineShortcut: { input: ShortcutDefinition, output: CallOutcome },
  devices: { input: z.object({}), output: z.array(DeviceView) },
  /** A click on the live screen: ui_tap through the pipeline, traced and gated like an agent's call. */
  deviceTap: {
    input: z.object({ serial: z.string().min(1), x: z.number().int().min(0), y: z.number().int().min(0) }),
    output: CallOutcome,
  },
  /** A drag on the live screen: ui_swipe through the pipeline. */
  deviceSwipe: {
    input: z.object({
      serial: z.string().min(1),
      x1: z.number().int().min(0),
      y1: z.number().int().min(0),
      x2: z.number().int().min(0),
      y2: z.number().int().min(0),
      durationMs: z.number().int().min(1).max(10_000).default(300),
    }),
    output: CallOutcome,
  },
  deviceLogcat: {
    input: z.object({ serial: z.string().min(1), lines: z.number().int().min(1).max(2000).default(200) }),
    output: z.object({ lines: z.array(z.string()) }),
  },
  browser: { input: z.object({}), output: BrowserView },
  /** Starts (on) or stops the mirrored page; frames arrive as `browser-frame` events. */
  browserScreen: { input: z.object({ on: z.boolean() }), output: z.object({ ok: z.boolean(), message: z.string() }) },
  getSettings: { input: z.object({}), output: z.object({ settings: Settings, restartRequired: z.array(z.string()) }) },
  /** Sets the given keys; a key set to null returns to its default. */
  updateSettings: {
    input: z.object({ changes: z.record(z.string(), z.unknown()) }),
    output: z.object({ settings: Settings, restartRequired: z.array(z.string()) }),
  },
  /** Every open terminal, whoever opened it. */
  terminals: { input: z.object({}), output: z.array(TerminalView) },
  /** What a new viewer replays: the terminal's newest output (up to 256 KB) and the byte offset it ends at. */
  terminalScreen: {
    input: z.object({ id: z.string().min(1) }),
    output: z.object({
      data: z.string(),
      from: z.number().int(),
      to: z.number().int(),
      runs: z.array(TerminalRunMark),
    }),
  },
  /** Take control (the person types, the agent waits) or hand it back. */
  terminalControl: {
    input: z.object({ id: z.string().min(1), on: z.boolean() }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /** The person's keystrokes while in control: terminal.write through the pipeline, traced as theirs. */
  terminalInput: {
    input: z.object({ id: z.string().min(1), data: z.string().min(1).max(16_384) }),
    output: CallOutcome,
  },
  /** The MCP client tokens; each client config the UI copies carries its own. */
  clientTokens: { input: z.object({}), output: z.array(ClientToken) },
  /**
   * A new token for a client, allowed the given toolsets (the default profile without them), returned this once (the
   * host keeps only its digest).
   */
  createClientToken: {
    input: z.object({ name: ClientTokenName, toolsets: ToolsetNames.optional() }),
    output: z.object({ client: ClientToken, token: z.string() }),
  },
  /** Changes the toolsets a client may use; its open sessions lose those removed at once. */
  setClientToolsets: {
    input: z.object({ id: z.string().min(1), toolsets: ToolsetNames }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /** Revokes a token at once: its requests get 401 and its open MCP sessions close. */
  revokeClientToken: {
    input: z.object({ id: z.string().min(1) }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /**
   * The installed skills with their tools. Installing and removing go through skill_install / skill_uninstall
   * (approval).
   */
  skills: { input: z.object({}), output: z.array(SkillView) },
  /** Enables or disables an installed skill: its tools, prompt and resource come and go with it. */
  setSkillEnabled: {
    input: z.object({ name: z.string().min(1).max(64), enabled: z.boolean() }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  githubStatus: { input: z.object({}), output: GithubStatus },
  /** Stores a GitHub token (registering the GitHub tools), or removes it with null. The token is never returned. */
  setGithubToken: {
    input: z.object({ token: z.string().trim().min(1).max(255).nullable() }),
    output: GithubStatus,
  },
} as const;

export type Contract = typeof contract;
// Both lists must name the same methods: a method added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const CONTRACT_AND_NAME_LIST_AGREE: Same<keyof Contract, MethodNameFromList> = true;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.infer<Contract[M]['output']>;
export const METHOD_NAMES = Object.keys(contract) as MethodName[];
