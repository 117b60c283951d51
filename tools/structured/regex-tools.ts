/**
 * regex_extract and regex_replace: JavaScript regular expressions under a size bound, checked on
 * the main thread, and matched in a CPU worker under a time bound.
 */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';
import { REGEX_REWRITE_HINT, checkRegexInput, compileRegex } from '../common/safe-regex';
import { runStructured } from './cpu';

export const REGEX_BOUND_MS = 2000;
const onBound = { boundMs: REGEX_BOUND_MS, whenBound: 'simplify the pattern', boundHint: REGEX_REWRITE_HINT };

const pattern = z
  .string()
  .min(1)
  .describe('JavaScript regular expression source, without slashes, e.g. "(\\\\d{4})-(\\\\d{2})".');
const flags = z
  .string()
  .max(8)
  .default('')
  .describe('RegExp flags: any of d g i m s u v y (e.g. "i" for case-insensitive, "m" for multi-line anchors).');
const text = z.string().describe('The text to search (at most 1,000,000 characters).');

export const regexExtract = defineTool({
  id: 'regex_extract',
  title: 'Extract regex matches',
  description:
    'Finds all matches of a regular expression in a text and returns each match with its index, numbered groups and named groups. Bounded in time: a pattern that backtracks catastrophically is stopped after 2 s with a hint.',
  input: z.object({
    pattern,
    flags,
    text,
    group: z
      .union([z.number().int().min(0), z.string().min(1)])
      .optional()
      .describe(
        'Return only this capture group per match: a number (0 = whole match) or a group name. Omit for full match objects.',
      ),
    maxMatches: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(100)
      .describe('Stop after this many matches (1–10000, default 100).'),
  }),
  ...structuredDeclaration,
  run: async (args, ctx) => {
    compileRegex(args.pattern, args.flags);
    checkRegexInput(args.text);
    const { pattern, flags, text, maxMatches, group } = args;
    const input = { pattern, flags, text, maxMatches, group };
    return jsonSuccess(
      await runStructured('regex.extract', { toolId: 'regex_extract', input, ...onBound, signal: ctx.signal }),
    );
  },
});

export const regexReplace = defineTool({
  id: 'regex_replace',
  title: 'Replace with a regex',
  description:
    "Replaces matches of a regular expression in a text. The replacement may use $1, $<name>, $& (whole match), $` and $' (text before/after) and $$ (a dollar). Returns the new text and the number of replacements.",
  input: z.object({
    pattern,
    flags,
    text,
    replacement: z.string().max(10_000).describe('Replacement text with optional $1 / $<name> / $& substitutions.'),
    replaceAll: z.boolean().default(true).describe('Replace every match (default) or only the first one.'),
  }),
  ...structuredDeclaration,
  run: async (args, ctx) => {
    compileRegex(args.pattern, args.flags);
    checkRegexInput(args.text);
    const { pattern, flags, text, replacement } = args;
    const input = { pattern, flags, text, replacement, all: args.replaceAll };
    return jsonSuccess(
      await runStructured('regex.replace', { toolId: 'regex_replace', input, ...onBound, signal: ctx.signal }),
    );
  },
});
