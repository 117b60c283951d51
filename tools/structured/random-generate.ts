/** random_generate: integers, floats, strings, choices and shuffles; a `seed` makes it reproducible. */
import { z } from 'zod';
import { JSON_VALUE } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';
import { type RandomSource, cryptoSource, randomFloat, randomInt, seededSource, shuffled } from './random-source';

const CHARSETS = {
  alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  numeric: '0123456789',
  hex: '0123456789abcdef',
  password: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*()-_=+[]{};:,.?',
} as const;

function invalid(message: string, field: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { data: { fields: [field] } });
}

type Args = {
  kind: 'integer' | 'float' | 'string' | 'choice' | 'shuffle';
  count: number;
  min?: number | undefined;
  max?: number | undefined;
  length: number;
  charset: keyof typeof CHARSETS;
  alphabet?: string | undefined;
  choices?: unknown[] | undefined;
  unique: boolean;
};

function integers(src: RandomSource, a: Args): number[] {
  const min = a.min ?? 0;
  const max = a.max ?? 100;
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max))
    throw invalid('"min" and "max" must be safe integers for kind "integer".', 'min');
  if (min > max) throw invalid(`"min" (${min}) is greater than "max" (${max}).`, 'min');
  if (!a.unique) return Array.from({ length: a.count }, () => randomInt(src, min, max));
  if (max - min + 1 < a.count)
    throw invalid(
      `Only ${max - min + 1} distinct integers lie in [${min}, ${max}]; fewer than count ${a.count}.`,
      'count',
    );
  const seen = new Set<number>();
  while (seen.size < a.count) seen.add(randomInt(src, min, max));
  return [...seen];
}

function choices(src: RandomSource, a: Args): unknown[] {
  const list = a.choices;
  if (!list || list.length === 0) throw invalid(`Kind "${a.kind}" needs a non-empty "choices" list.`, 'choices');
  if (a.kind === 'shuffle') return shuffled(src, list);
  if (!a.unique) return Array.from({ length: a.count }, () => list[randomInt(src, 0, list.length - 1)]);
  if (list.length < a.count)
    throw invalid(`Cannot pick ${a.count} distinct items from ${list.length} choices.`, 'count');
  return shuffled(src, list).slice(0, a.count);
}

function generate(src: RandomSource, a: Args): unknown[] {
  switch (a.kind) {
    case 'integer':
      return integers(src, a);
    case 'float': {
      const min = a.min ?? 0;
      const max = a.max ?? 1;
      if (min >= max) throw invalid(`"min" (${min}) must be less than "max" (${max}).`, 'min');
      return Array.from({ length: a.count }, () => min + randomFloat(src) * (max - min));
    }
    case 'string': {
      const alphabet = [...new Set(a.alphabet ?? CHARSETS[a.charset])];
      if (alphabet.length < 2) throw invalid('"alphabet" needs at least two distinct characters.', 'alphabet');
      return Array.from({ length: a.count }, () =>
        Array.from({ length: a.length }, () => alphabet[randomInt(src, 0, alphabet.length - 1)]).join(''),
      );
    }
    case 'choice':
    case 'shuffle':
      return choices(src, a);
  }
}

export const randomGenerate = defineTool({
  id: 'random_generate',
  title: 'Generate random values',
  description:
    'Random integers (0 to 100 by default), floats (0 to 1), strings, a choice from choices, or them shuffled; ' +
    'seed repeats values (not for secrets).',
  input: z.object({
    kind: z.enum(['integer', 'float', 'string', 'choice', 'shuffle']),
    count: z.number().int().min(1).max(1000).default(1),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    length: z.number().int().min(1).max(4096).default(16),
    charset: z.enum(Object.keys(CHARSETS) as [keyof typeof CHARSETS]).default('alphanumeric'),
    alphabet: z.string().min(2).max(1000).optional().describe('Instead of charset.'),
    choices: z.array(JSON_VALUE).max(10_000).optional(),
    unique: z.boolean().default(false).describe('integer and choice: no value twice.'),
    seed: z.union([z.string().max(256), z.number()]).optional(),
  }),
  ...structuredDeclaration,
  run: (args) => {
    const src = args.seed === undefined ? cryptoSource() : seededSource(String(args.seed));
    const values = generate(src, args);
    return jsonSuccess({ kind: args.kind, seeded: args.seed !== undefined, values });
  },
});
