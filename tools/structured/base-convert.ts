/** base_convert: integers of any size between bases 2–36 (BigInt). */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
const PREFIX_BASE: Record<string, number> = { '0x': 16, '0o': 8, '0b': 2 };
const MAX_DIGITS = 4096;

/** BigInt() itself only reads bases 2, 8, 10 and 16 (with prefixes), so other bases are read digit by digit. */
export function parseInBase(value: string, base: number): bigint {
  let text = value.trim().replace(/_/g, '').toLowerCase();
  let negative = false;
  if (text.startsWith('-') || text.startsWith('+')) {
    negative = text.startsWith('-');
    text = text.slice(1);
  }
  const prefix = text.slice(0, 2);
  if (PREFIX_BASE[prefix] === base) text = text.slice(2);
  if (text === '') throw bad(value, base, 'there are no digits');
  if (text.length > MAX_DIGITS) throw bad(value, base, `more than ${MAX_DIGITS} digits`);
  const b = BigInt(base);
  let n = 0n;
  for (const ch of text) {
    const d = DIGITS.indexOf(ch);
    if (d < 0 || d >= base) throw bad(value, base, `"${ch}" is not a base-${base} digit`);
    n = n * b + BigInt(d);
  }
  return negative ? -n : n;
}

function bad(value: string, base: number, why: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `"${value.slice(0, 60)}" is not an integer in base ${base}: ${why}.`, {
    hint:
      'Give an integer written with the digits 0-9 and a-z ' +
      `below ${base}${base === 16 ? ' (an "0x" prefix is allowed)' : ''}; fractions are not supported.`,
    data: { fields: ['value'] },
  });
}

const base = z.number().int().min(2).max(36);

export const baseConvert = defineTool({
  id: 'base_convert',
  title: 'Convert number bases',
  description: 'Converts an integer of any size between bases 2 to 36; a sign, "_" and a 0x/0o/0b prefix are read.',
  input: z.object({
    value: z.string().min(1).describe('In base from.'),
    from: base.default(10),
    to: z.union([base, z.array(base).min(1).max(36)]),
    uppercase: z.boolean().default(false).describe('Digits above 9 as A-Z.'),
  }),
  ...structuredDeclaration,
  run: (args) => {
    const n = parseInBase(args.value, args.from);
    const targets = Array.isArray(args.to) ? args.to : [args.to];
    const results = Object.fromEntries(
      targets.map((t) => {
        const digits = n.toString(t);
        return [String(t), args.uppercase ? digits.toUpperCase() : digits];
      }),
    );
    return jsonSuccess({ decimal: n.toString(10), results });
  },
});
