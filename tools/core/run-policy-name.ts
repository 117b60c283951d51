/**
 * The names of the run policy presets (docs/architecture.md#run-policies), apart from the presets
 * themselves so the tool contract and the registry can name them without importing the pipeline.
 */
export const RUN_POLICY_NAMES = ['quickRead', 'network', 'mutating', 'selfBounded', 'v2'] as const;

export type RunPolicyName = (typeof RUN_POLICY_NAMES)[number];

export function isRunPolicyName(name: unknown): name is RunPolicyName {
  return typeof name === 'string' && (RUN_POLICY_NAMES as readonly string[]).includes(name);
}
