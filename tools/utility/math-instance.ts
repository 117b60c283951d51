/**
 * A restricted mathjs instance, following mathjs's security guidance: the functions that parse,
 * evaluate or extend at run time (import, createUnit, evaluate, parse, compile, simplify,
 * derivative, resolve, …) are replaced by ones that throw, so an expression can never reach them.
 * `parseExpression` is the parser captured before it was disabled; callers must vet its tree
 * (math-guard.ts) before compiling it.
 */
import { all, create } from 'mathjs';

if (!all) throw new Error('mathjs did not export its factory set');
export const math = create(all, { number: 'number', matrix: 'Matrix' });

/** The parser, kept for the host's own use before `parse` is disabled inside the instance. */
export const parseExpression = math.parse;

const DISABLED = [
  'import',
  'createUnit',
  'reviver',
  'replacer',
  'evaluate',
  'parse',
  'parser',
  'compile',
  'simplify',
  'simplifyConstant',
  'simplifyCore',
  'rationalize',
  'derivative',
  'resolve',
  'leafCount',
  'symbolicEqual',
] as const;

function disabled(name: string): () => never {
  return () => {
    throw new Error(`Function ${name} is disabled`);
  };
}

math.import(Object.fromEntries(DISABLED.map((name) => [name, disabled(name)])), { override: true });

export const DISABLED_FUNCTIONS: ReadonlySet<string> = new Set(DISABLED);
