/**
 * Run policies (docs/architecture.md#run-policies, ToolRunPolicy): timeout, retries and rate per
 * tool kind.
 *
 * | preset      | timeout | retries | rate    | a cancelled call        |
 * | quickRead   | 30 s    | 1       | 120 rpm | ends at once            |
 * | network     | 90 s    | 2       | 30 rpm  | ends at once            |
 * | mutating    | 60 s    | none    | —       | ends at once            |
 * | selfBounded | —       | none    | —       | ends when the tool does |
 * | v2          | —       | none    | —       | ends when the tool does |
 *
 * `selfBounded` is for tools that bound their own time and answer a cancellation with their own
 * report (wait, batches, shortcuts). `v2` is the seed's v2 executor's behaviour, what every tool
 * gets from a pipeline built without run policies; the two agree today and are named apart
 * because they mean different things. A tool names its preset with `runPolicy`; otherwise it is
 * picked from its metadata.
 */
import type { RunPolicyName } from '../run-policy-name';
import type { Tool } from '../tool';

export type { RunPolicyName } from '../run-policy-name';

export interface RunPolicy {
  name: RunPolicyName;
  /** Per attempt; undefined = no timeout. */
  timeoutMs: number | undefined;
  /** Extra attempts after the first; only ever used for retry-safe tools. */
  maxRetries: number;
  /** Token-bucket quota; undefined = no limit. */
  perMinute: number | undefined;
  /**
   * true: a cancelled call ends at once as a cancelled result, whatever the tool does.
   * false (selfBounded, v2): the tool sees its aborted signal and decides when and how to end.
   */
  endOnCancel: boolean;
}

export const RUN_POLICIES = {
  quickRead: { name: 'quickRead', timeoutMs: 30_000, maxRetries: 1, perMinute: 120, endOnCancel: true },
  network: { name: 'network', timeoutMs: 90_000, maxRetries: 2, perMinute: 30, endOnCancel: true },
  mutating: { name: 'mutating', timeoutMs: 60_000, maxRetries: 0, perMinute: undefined, endOnCancel: true },
  selfBounded: { name: 'selfBounded', timeoutMs: undefined, maxRetries: 0, perMinute: undefined, endOnCancel: false },
  v2: { name: 'v2', timeoutMs: undefined, maxRetries: 0, perMinute: undefined, endOnCancel: false },
} as const satisfies Record<RunPolicyName, RunPolicy>;

/** Changes to some presets' values (a host's shorter timeouts, a lab's higher quota). */
export type RunPolicyOverrides = Partial<Record<RunPolicyName, Partial<Omit<RunPolicy, 'name'>>>>;

export type RunPolicyResolver = (tool: Tool) => RunPolicy;

/** The policy a tool gets by its metadata alone. */
export function inferRunPolicyName(tool: Pick<Tool, 'metadata'>): RunPolicyName {
  const { annotations, category } = tool.metadata;
  if (!annotations.readOnlyHint) return 'mutating';
  if (annotations.openWorldHint && (category === 'network' || category === 'browser')) return 'network';
  return 'quickRead';
}

/**
 * A resolver over the presets, with any values overridden: the tool's declared `runPolicy`, else
 * the inferred one (the registry refuses a tool naming no preset). Results are cached per tool.
 */
export function runPolicyResolver(overrides: RunPolicyOverrides = {}): RunPolicyResolver {
  const all = { ...RUN_POLICIES } as Record<RunPolicyName, RunPolicy>;
  for (const [name, change] of Object.entries(overrides) as Array<[RunPolicyName, Partial<RunPolicy>]>)
    all[name] = { ...all[name], ...change, name };
  const cache = new WeakMap<Tool, RunPolicy>();
  return (tool) => {
    let policy = cache.get(tool);
    if (policy === undefined) {
      policy = all[tool.runPolicy ?? inferRunPolicyName(tool)];
      cache.set(tool, policy);
    }
    return policy;
  };
}

/** Every tool runs as under the seed's v2 executor: what a pipeline built without run policies uses. */
export const v2Policies: RunPolicyResolver = () => RUN_POLICIES.v2;
