/**
 * Shortcut preconditions (docs/architecture.md#shortcuts): `{ key, equals }` compared, before the
 * first step, with the fresh telemetry value the host has for `key`. A key names a reading the
 * host really has, from the catalogue the host hands in (`device.<serial>.online`,
 * `browser.dialogOpen`…); a `{param}` in it is the shortcut's parameter, so one shortcut can check
 * the device it is given (`device.{serial}.online`). A value that is missing or stale (unknown),
 * or a reader that throws, lets the run through, as the environment gate does (fail-open); a known
 * different value refuses the run.
 */
import { type ToolResult, failure } from '../core/result';
import type { ShortcutDefinition, ShortcutPrecondition } from './shortcut-definition';
import type { FieldIssue } from './step-runner';
import type { ParamValue } from './template';

/** Reads one environment value; undefined when unknown or stale (then preconditions pass). */
export type TelemetryReader = (key: string) => unknown;

/** A key a precondition may name: `<serial>`-style parts stand for any value (a device's serial). */
export interface PreconditionKey {
  key: string;
  meaning: string;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pattern of a catalogue key: each `<part>` matches any non-empty text. */
export function keyPattern(key: string): RegExp {
  return new RegExp(
    `^${key
      .split(/<[^>]+>/)
      .map(escapeRegExp)
      .join('.+')}$`,
  );
}

/** The catalogue keys a precondition's key may be (a `{param}` counts as any value). */
export function matchingKeys(key: string, catalogue: readonly PreconditionKey[]): PreconditionKey[] {
  const probe = key.replace(PLACEHOLDER, 'x');
  return catalogue.filter((k) => keyPattern(k.key).test(probe));
}

/** Parameters a precondition key names. */
export function keyParams(key: string): string[] {
  return [...key.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

/** Keys that are not the host's, each naming its field and the keys there are. */
export function preconditionKeyIssues(
  def: Pick<ShortcutDefinition, 'preconditions'>,
  catalogue: readonly PreconditionKey[],
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const [i, pre] of (def.preconditions ?? []).entries()) {
    if (matchingKeys(pre.key, catalogue).length > 0) continue;
    issues.push({
      field: `preconditions[${i}].key`,
      message:
        `'${pre.key}' is not a telemetry key the host has; use one ` +
        `of ${catalogue.map((k) => k.key).join(', ')} (write {serial} for the serial a parameter gives)`,
    });
  }
  return issues;
}

/** The key with its parameters filled in; undefined when one of them was not given (then the value is unknown). */
export function resolveKey(key: string, params: ReadonlyMap<string, ParamValue | undefined>): string | undefined {
  let missing = false;
  const resolved = key.replace(PLACEHOLDER, (_m, name: string) => {
    const value = params.get(name);
    if (value === undefined) missing = true;
    return String(value ?? '');
  });
  return missing ? undefined : resolved;
}

/** A broken telemetry source is treated like a missing value: it must not block work. */
function readSafely(telemetry: TelemetryReader, key: string): unknown {
  try {
    return telemetry(key);
  } catch {
    return undefined;
  }
}

export function preconditionFailure(
  def: ShortcutDefinition,
  telemetry: TelemetryReader | undefined,
  params: ReadonlyMap<string, ParamValue | undefined>,
): ToolResult | undefined {
  if (!telemetry || !def.preconditions) return undefined;
  for (const pre of def.preconditions) {
    const key = resolveKey(pre.key, params);
    if (key === undefined) continue;
    const actual = readSafely(telemetry, key);
    if (actual === undefined || actual === null) continue; // unknown or stale: fail-open
    if (actual === pre.equals) continue;
    return refusal(def, pre, key, actual);
  }
  return undefined;
}

function refusal(def: ShortcutDefinition, pre: ShortcutPrecondition, key: string, actual: unknown): ToolResult {
  return failure(
    'EXECUTION_FAILED',
    `Shortcut '${def.id}' needs ${key} = ${JSON.stringify(pre.equals)}, ` +
      `but it is ${JSON.stringify(actual)}; no step was run.`,
    {
      hint:
        pre.hint ??
        `Bring the environment to ${key} = ${JSON.stringify(pre.equals)} first, then run the shortcut again.`,
      data: { precondition: key, expected: pre.equals, actual },
    },
  );
}
