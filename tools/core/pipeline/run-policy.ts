/**
 * Run policies (docs/architecture.md#run-policies, ToolRunPolicy): timeout, retries and rate per
 * tool kind.
 *
 * | preset    | timeout | retries | rate     |
 * | quickRead | 30 s    | 1       | 120 rpm  |
 * | network   | 90 s    | 2       | 30 rpm   |
 * | mutating  | 60 s    | none    | —        |
 * | legacy    | —       | —       | —        |  (v2 behaviour, including cancellation left to the tool)
 *
 * A tool names its preset with `runPolicy`; otherwise it is picked from its metadata.
 */
import type { Tool } from '../tool';

export interface RunPolicy {
  name: string;
  /** Per attempt; undefined = no timeout. */
  timeoutMs: number | undefined;
  /** Extra attempts after the first; only ever used for retry-safe tools. */
  maxRetries: number;
  /** Token-bucket quota; undefined = no limit. */
  perMinute: number | undefined;
  /**
   * true: a cancelled call ends at once as a cancelled result, whatever the tool does.
   * false (legacy, as v2): the tool sees its aborted signal and decides when and how to end.
   */
  endOnCancel: boolean;
}

export const RUN_POLICIES = {
  quickRead: { name: 'quickRead', timeoutMs: 30_000, maxRetries: 1, perMinute: 120, endOnCancel: true },
  network: { name: 'network', timeoutMs: 90_000, maxRetries: 2, perMinute: 30, endOnCancel: true },
  mutating: { name: 'mutating', timeoutMs: 60_000, maxRetries: 0, perMinute: undefined, endOnCancel: true },
  legacy: { name: 'legacy', timeoutMs: undefined, maxRetries: 0, perMinute: undefined, endOnCancel: false },
} as const satisfies Record<string, RunPolicy>;

export type RunPolicyName = keyof typeof RUN_POLICIES;

export type RunPolicyResolver = (tool: Tool) => RunPolicy;

/** The policy a tool gets by its metadata alone. */
export function inferRunPolicyName(tool: Pick<Tool, 'metadata'>): RunPolicyName {
  const { annotations, category } = tool.metadata;
  if (!annotations.readOnlyHint) return 'mutating';
  if (annotations.openWorldHint && (category === 'network' || category === 'browser')) return 'network';
  return 'quickRead';
}

/**
 * A resolver over a set of presets (the defaults, with any overridden or added): the tool's
 * declared `runPolicy` when the set has it, else the inferred one. Results are cached per tool.
 */
export function runPolicyResolver(presets: Readonly<Record<string, RunPolicy>> = RUN_POLICIES): RunPolicyResolver {
  const all: Record<string, RunPolicy> = { ...RUN_POLICIES, ...presets };
  const cache = new WeakMap<Tool, RunPolicy>();
  return (tool) => {
    let policy = cache.get(tool);
    if (policy === undefined) {
      const declared = tool.runPolicy !== undefined ? all[tool.runPolicy] : undefined;
      policy = declared ?? all[inferRunPolicyName(tool)] ?? RUN_POLICIES[inferRunPolicyName(tool)];
      cache.set(tool, policy);
    }
    return policy;
  };
}

/** Every tool gets v2 behaviour: what the executor uses when no resolver is given. */
export const legacyPolicies: RunPolicyResolver = () => RUN_POLICIES.legacy;
