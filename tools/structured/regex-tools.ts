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

const pattern = z.string().min(1).describe('JavaScript regex, no slashes.');
const flags = z.string().max(8).default('').describe('Any of d g i m s u v y.');
const text = z.string();

export const regexExtract = defineTool({
  id: 'regex_extract',
  title: 'Extract regex matches',
  description: 'Finds the matches of a regex in a text, each with index and groups; a runaway pattern stops after 2 s.',
  input: z.object({
    pattern,
    flags,
    text,
    group: z
      .union([z.number().int().min(0), z.string().min(1)])
      .optional()
      .describe('Only this group: a number or a name.'),
    maxMatches: z.number().int().min(1).max(10_000).default(100),
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
  description: "Replaces the matches of a regex in a text; replacement may use $1, $<name>, $&, $` and $'.",
  input: z.object({
    pattern,
    flags,
    text,
    replacement: z.string().max(10_000),
    replaceAll: z.boolean().default(true).describe('false: only the first match.'),
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
