/** regex_extract and regex_replace: JavaScript regular expressions under a time and size bound. */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';
import { boundedMatches, boundedReplace, checkRegexInput, compileRegex } from '../common/safe-regex';

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
    'Finds all matches of a regular expression in a text and returns each match with its index, numbered groups and named groups. Bounded in time: a pattern that backtracks catastrophically is refused with a hint.',
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
  run: (args) => {
    const re = compileRegex(args.pattern, args.flags);
    checkRegexInput(args.text);
    const { matches, truncated } = boundedMatches(re, args.text, args.maxMatches);
    if (args.group === undefined) return jsonSuccess({ count: matches.length, truncated, matches });
    const group = args.group;
    const values = matches.map((m) => {
      if (typeof group === 'string') return m.named?.[group] ?? null;
      return (group === 0 ? m.match : m.groups[group - 1]) ?? null;
    });
    return jsonSuccess({ count: values.length, truncated, values });
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
  run: (args) => {
    const re = compileRegex(args.pattern, args.flags);
    checkRegexInput(args.text);
    const { output, replacements } = boundedReplace(re, args.text, args.replacement, { all: args.replaceAll });
    return jsonSuccess({ replacements, text: output });
  },
});
