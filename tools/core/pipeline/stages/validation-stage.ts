/**
 * Schema validation (docs/architecture.md#schema-validation): the tool's zod input checks the
 * arguments, and from here on the stages, the person asked and the tool see the parsed value
 * (defaults filled in, undeclared fields dropped). A failure is INVALID_ARGUMENT naming every bad
 * field.
 *
 * Fields a tool does not declare are tolerated, as the seed does, but never silently: the result
 * tells the model which ones were ignored, and the person asked about the call sees them marked
 * ignored. For a tool that needs approval, an undeclared field that is a near name of a declared
 * one (`keep_data` for `keepData`) is refused before anyone is asked: the caller meant the
 * declared field, and running the call without it would do what nobody asked for (delete the data
 * it meant to keep).
 *
 * Nothing here reads a call's target: that is the precheck's (precheck-stage.ts), which runs only
 * after the person's deny rules (rule-stage.ts) had their say.
 */
import { distance } from 'fastest-levenshtein';
import { needsApproval } from '../../permission';
import { type ToolFailure, type ToolResult, failure } from '../../result';
import type { Tool } from '../../tool';
import { fieldsOf } from '../call-trace';
import type { Stage } from '../pipeline-call';

export interface FieldChecks {
  /** Tell the model, in every result, which sent fields were ignored. */
  reportIgnored: boolean;
  /** For tools that need approval: an undeclared near name of a declared field is INVALID_ARGUMENT. */
  refuseNearNames: boolean;
}

export function validationStage(checks?: FieldChecks): Stage {
  return (c, next) => {
    const sent = c.args;
    const validated = c.tool.validate(sent);
    if (!validated.ok) return checks === undefined ? validated : withNearNames(validated, c.tool, sent);
    c.args = validated.value;
    if (checks === undefined) return next(c);
    const ignored = ignoredFields(sent, validated.value);
    if (ignored === undefined) return next(c);
    c.ignored = ignored;
    if (checks.refuseNearNames && needsApproval(c.tool)) {
      const refused = nearNameRefusal(c.tool, Object.keys(ignored));
      if (refused !== undefined) return refused;
    }
    if (!checks.reportIgnored) return next(c);
    const names = Object.keys(ignored);
    return Promise.resolve(next(c)).then((result) => withIgnoredNote(result, c.tool.id, names));
  };
}

/** Sent top-level fields the parsed value does not keep, with their values; undefined when none. */
export function ignoredFields(sent: unknown, parsed: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(sent) || !isPlainObject(parsed)) return undefined;
  let ignored: Record<string, unknown> | undefined;
  for (const key in sent) {
    if (!Object.hasOwn(sent, key) || sent[key] === undefined || Object.hasOwn(parsed, key)) continue;
    ignored ??= {};
    ignored[key] = sent[key];
  }
  return ignored;
}

/** The declared field a sent name was probably meant to be: same letters but for case, `_` and `-`, or a typo away. */
export function nearField(name: string, declared: Iterable<string>): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const wanted = squash(name);
  if (wanted.length < 3) return undefined;
  const budget = wanted.length >= 6 ? 2 : wanted.length >= 4 ? 1 : 0;
  let best: { field: string; d: number } | undefined;
  for (const field of declared) {
    const d = distance(wanted, squash(field));
    if (d <= budget && (best === undefined || d < best.d)) best = { field, d };
  }
  return best?.field;
}

function nearNameRefusal(tool: Tool, names: readonly string[]): ToolFailure | undefined {
  const declared = fieldsOf(tool);
  const pairs = names.flatMap((name) => {
    const meant = nearField(name, declared);
    return meant !== undefined ? [{ name, meant }] : [];
  });
  if (pairs.length === 0) return undefined;
  const said = pairs.map((p) => `${p.name} is not a field of ${tool.id}; did you mean ${p.meant}?`).join(' ');
  const meant = pairs.map((p) => p.meant).join(', ');
  return failure('INVALID_ARGUMENT', `Invalid arguments: ${said}`, {
    hint: `Send the call again with ${meant} spelled as declared. Nothing ran and nobody was asked.`,
    data: { fields: pairs.map((p) => p.name), suggestions: pairs.map((p) => p.meant) },
  });
}

/** A refusal of bad arguments, saying which sent name was probably meant for a declared field. */
function withNearNames(refusal: ToolFailure, tool: Tool, sent: unknown): ToolFailure {
  if (!isPlainObject(sent)) return refusal;
  const declared = fieldsOf(tool);
  const hints = Object.keys(sent).flatMap((name) => {
    if (declared.has(name)) return [];
    const meant = nearField(name, declared);
    return meant !== undefined ? [`${name} is not a field of ${tool.id}; did you mean ${meant}?`] : [];
  });
  if (hints.length === 0) return refusal;
  return { ...refusal, error: { ...refusal.error, message: `${refusal.error.message} ${hints.join(' ')}` } };
}

/** The result, telling the model that some of what it sent had no effect. */
function withIgnoredNote(result: ToolResult, toolId: string, names: readonly string[]): ToolResult {
  const list = names.join(', ');
  const are = names.length === 1 ? 'is not a field' : 'are not fields';
  const note = `Ignored: ${list} ${are} of ${toolId} and had no effect.`;
  if (result.ok) return { ...result, content: [...result.content, { type: 'text', text: note }] };
  return {
    ...result,
    error: {
      ...result.error,
      hint: `${result.error.hint} ${note}`,
      data: { ...result.error.data, ignoredFields: [...names] },
    },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
