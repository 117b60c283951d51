/** The regex tools' heavy part, run in a CPU worker: pattern, flags and text in, plain matches out. */
import { type RegexMatch, compileRegex, findMatches, replaceMatches } from '../common/safe-regex';

export interface ExtractInput {
  pattern: string;
  flags: string;
  text: string;
  maxMatches: number;
  group: number | string | undefined;
}

export type ExtractOutput =
  | { count: number; truncated: boolean; matches: RegexMatch[] }
  | { count: number; truncated: boolean; values: Array<string | null> };

export function extractTask(input: ExtractInput): ExtractOutput {
  const re = compileRegex(input.pattern, input.flags);
  const { matches, truncated } = findMatches(re, input.text, input.maxMatches);
  const group = input.group;
  if (group === undefined) return { count: matches.length, truncated, matches };
  const values = matches.map((m) => {
    if (typeof group === 'string') return m.named?.[group] ?? null;
    return (group === 0 ? m.match : m.groups[group - 1]) ?? null;
  });
  return { count: values.length, truncated, values };
}

export interface ReplaceInput {
  pattern: string;
  flags: string;
  text: string;
  replacement: string;
  all: boolean;
}

export function replaceTask(input: ReplaceInput): { replacements: number; text: string } {
  const re = compileRegex(input.pattern, input.flags);
  const { output, replacements } = replaceMatches(re, input.text, input.replacement, { all: input.all });
  return { replacements, text: output };
}
