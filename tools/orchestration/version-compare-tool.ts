/**
 * version_compare (docs/architecture.md#tool-families): SemVer ordering with the `semver` package —
 * compare two versions, sort a list, or test versions against a range. Strings that are not SemVer
 * are refused with INVALID_ARGUMENT naming the field, and the hint says whether `coerce: true`
 * would read them (e.g. "1.2" → 1.2.0, "v2.0-beta" → 2.0.0).
 */
import semver from 'semver';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';

const versionField = () => z.string().min(1).max(256).optional();

const input = z.object({
  operation: z.enum(['compare', 'sort', 'satisfies']),
  a: versionField(),
  b: versionField(),
  versions: z.array(z.string().max(256)).min(1).max(1000).optional(),
  version: versionField(),
  range: z.string().min(1).max(512).optional().describe('e.g. "^1.2.0", ">=2 <3".'),
  order: z.enum(['asc', 'desc']).default('asc'),
  coerce: z.boolean().default(false).describe('Read "1.2" or "v2" as SemVer.'),
  includePrerelease: z.boolean().default(false).describe('Prereleases match any range.'),
});

type Args = z.infer<typeof input>;

function invalid(field: string, message: string, hint?: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { ...(hint ? { hint } : {}), data: { fields: [field] } });
}

function required<T>(value: T | undefined, field: string, operation: string): T {
  if (value === undefined) throw invalid(field, `Invalid arguments: operation "${operation}" needs "${field}".`);
  return value;
}

function parse(text: string, field: string, coerce: boolean): semver.SemVer {
  const strict = semver.parse(text.trim());
  if (strict) return strict;
  const coerced = semver.coerce(text, { includePrerelease: true });
  if (coerce && coerced) return coerced;
  if (coerced) {
    throw invalid(
      field,
      `"${text}" in ${field} is not a SemVer version (MAJOR.MINOR.PATCH).`,
      `Pass coerce: true to read it as ${coerced.version}, or give a full version like 1.2.0.`,
    );
  }
  throw invalid(
    field,
    `"${text}" in ${field} is not a version, even loosely (no MAJOR[.MINOR[.PATCH]] found).`,
    'Give a version like 1.2.0; coerce: true also accepts loose forms like "1.2" or "v2".',
  );
}

function compare(args: Args) {
  const a = parse(required(args.a, 'a', 'compare'), 'a', args.coerce);
  const b = parse(required(args.b, 'b', 'compare'), 'b', args.coerce);
  const result = semver.compare(a, b);
  const relation = result < 0 ? '<' : result > 0 ? '>' : '=';
  return { a: a.version, b: b.version, result, relation, text: `${a.version} ${relation} ${b.version}` };
}

function sort(args: Args) {
  const list = required(args.versions, 'versions', 'sort').map((text, i) => ({
    text,
    parsed: parse(text, `versions[${i}]`, args.coerce),
  }));
  const sign = args.order === 'desc' ? -1 : 1;
  list.sort((x, y) => sign * semver.compare(x.parsed, y.parsed));
  return { order: args.order, sorted: list.map((v) => v.text), normalized: list.map((v) => v.parsed.version) };
}

function satisfies(args: Args) {
  const range = required(args.range, 'range', 'satisfies');
  if (semver.validRange(range) === null) {
    throw invalid(
      'range',
      `"${range}" is not a SemVer range.`,
      'Use a range like "^1.2.0", "~1.2", ">=1.0.0 <2.0.0" or "1.x || >=3".',
    );
  }
  const options = { includePrerelease: args.includePrerelease };
  if (args.version !== undefined) {
    const v = parse(args.version, 'version', args.coerce);
    return { version: v.version, range, satisfies: semver.satisfies(v, range, options) };
  }
  if (args.versions === undefined)
    throw invalid('version', 'Invalid arguments: operation "satisfies" needs "version" or "versions".');
  const list = args.versions.map((text, i) => ({ text, parsed: parse(text, `versions[${i}]`, args.coerce) }));
  const matching = list.filter((v) => semver.satisfies(v.parsed, range, options));
  const best = semver.maxSatisfying(
    matching.map((v) => v.parsed),
    range,
    options,
  );
  return {
    range,
    matching: matching.map((v) => v.text),
    max: best ? (matching.find((v) => v.parsed === best)?.text ?? best.version) : null,
  };
}

export function versionCompareTool() {
  return defineTool({
    id: 'version_compare',
    title: 'Compare versions',
    description: 'SemVer: compare a with b, sort versions, or test version (or versions) against range.',
    input,
    metadata: { category: 'orchestration', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    run(args) {
      if (args.operation === 'compare') return jsonSuccess(compare(args));
      if (args.operation === 'sort') return jsonSuccess(sort(args));
      return jsonSuccess(satisfies(args));
    },
  });
}
