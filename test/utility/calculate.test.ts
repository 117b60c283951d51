// Rule guarded: calculate evaluates arithmetic, units and small matrices, and nothing else: every
// attempt to reach code (constructor, __proto__, import, evaluate, function definitions) and every
// resource bomb (huge exponents, huge matrices and ranges) is a clear INVALID_ARGUMENT, never code
// execution, a crash or a hang; an evaluation that runs too long is stopped in its CPU worker at
// the 2 s bound as TIMEOUT.
import { describe, expect, it } from 'vitest';
import { utilityTools } from '../../tools/utility';
import { math } from '../../tools/utility/math-instance';
import { harness } from '../structured/harness';

const h = harness(utilityTools());
const calc = (expression: string, extra: Record<string, unknown> = {}) => h.call('calculate', { expression, ...extra });

const ESCAPES = [
  'constructor',
  '__proto__',
  'prototype',
  'a.constructor',
  '[1,2].constructor',
  '[1][1].constructor.constructor("return process")()',
  'cos.constructor("return process")()',
  'sin["constructor"]',
  '{}["__proto__"]',
  'import({x: 1}, {override: true})',
  'import',
  'evaluate("1+1")',
  'parse("1")',
  'compile("1")',
  'simplify("x+x")',
  'derivative("x^2", "x")',
  'resolve(x)',
  'createUnit("foo")',
  'reviver',
  'f(x) = f(x)',
  'f(x) = f(x); f(1)',
  'f(x) = x',
  'x = 1',
  'a = 1; a',
  'map([1,2], f)',
  'typeOf(1)',
  'help(sin)',
  'chain(1)',
  'config({number: "BigNumber"})',
  '"abc"',
  'concat("a", "b")',
  'process',
  'globalThis',
  'this',
  'require("fs")',
  'Function("return 1")()',
];

const BOMBS = [
  'zeros(100000, 100000)',
  'ones(1e5, 1e5)',
  'identity(1e5)',
  'range(1, 1e9)',
  '1:1e9',
  '1:0.0000001:2',
  'sum(1:1e8)',
  '[1:1000]',
  '[[[1]]]',
  '[[1:10]]',
  'reshape([1,2], [1e5, 1e5])',
  'resize([1], [1e5, 1e5])',
  'kron([1,2],[3,4])',
  'random([1e9])',
  'fraction(2)^1e9',
  'bignumber(2)^1e9',
  '10^10^10',
  '2^1e6',
  'factorial(1e9)',
  '1e308 * 10',
  '1/0',
  'gamma(1e9)',
];

describe('calculate refuses escape attempts', () => {
  it.each(ESCAPES)('%s', async (expression) => {
    const r = await calc(expression);
    expect(r.ok, expression).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('INVALID_ARGUMENT');
      expect(r.error.hint.length).toBeGreaterThan(10);
    }
  });

  it('and the disabled functions stay disabled inside the instance itself', () => {
    for (const name of ['evaluate', 'parse', 'import', 'createUnit', 'compile', 'simplify', 'derivative', 'resolve']) {
      expect(() => (math as unknown as Record<string, (...a: unknown[]) => unknown>)[name]?.('1'), name).toThrow(
        /disabled/,
      );
    }
  });
});

describe('calculate refuses resource bombs', () => {
  it.each(BOMBS)('%s', async (expression) => {
    const r = await calc(expression);
    expect(r.ok, expression).toBe(false);
    if (!r.ok) expect(r.error.code, `${expression}: ${r.error.message}`).toBe('INVALID_ARGUMENT');
  });
});

describe('calculate stops expensive evaluation', () => {
  it('at the time bound with TIMEOUT, and the next calculation still works', async () => {
    const e = await h.fails('calculate', { expression: 'combinations(1e15, 5e14)' }, 'TIMEOUT');
    expect(e.message).toBe('calculate ran past its 2 s bound and was stopped; simplify the expression.');
    expect(e.data).toMatchObject({ reason: 'cpu-bound', deterministic: true });
    expect(await h.ok('calculate', { expression: '6 * 7' })).toMatchObject({ value: 42 });
  });
});

describe('calculate refuses bad arguments', () => {
  it('syntax errors, unknown symbols, mismatched units, reserved variable names', async () => {
    expect((await h.fails('calculate', { expression: '(1 + 2' }, 'INVALID_ARGUMENT')).message).toMatch(
      /cannot be parsed/,
    );
    expect((await h.fails('calculate', { expression: 'y + 1' }, 'INVALID_ARGUMENT')).message).toMatch(
      /Unknown symbol "y"/,
    );
    await h.fails('calculate', { expression: '5 cm + 2 kg' }, 'INVALID_ARGUMENT');
    await h.fails('calculate', { expression: '1', variables: { constructor: 1 } }, 'INVALID_ARGUMENT');
    await h.fails('calculate', { expression: '1', variables: { sin: 1 } }, 'INVALID_ARGUMENT');
    await h.fails('calculate', { expression: '1', variables: { __proto__x: 1 } }, 'INVALID_ARGUMENT');
    await h.fails('calculate', { expression: 'x'.repeat(1001) }, 'INVALID_ARGUMENT');
    await h.fails('calculate', {}, 'INVALID_ARGUMENT');
  });
});

describe('calculate', () => {
  it.each([
    ['2 + 2', 4],
    ['sqrt(2) * 3^2', 12.727922061357857],
    ['(1 + 2) * 3 % 4', 1],
    ['5!', 120],
    ['round(pi, 4)', 3.1416],
    ['gcd(12, 18) + mod(10, 3)', 7],
    ['mean([4, 8, 15])', 9],
    ['det([1, 2; 3, 4])', -2],
    ['sum(1:100)', 5050],
    ['max(3, 9, 2)', 9],
    ['cos(0) == 1', true],
    ['1 < 2 ? 10 : 20', 10],
    ['[1, 2, 3][2]', 2],
  ])('evaluates %s', async (expression, value) => {
    expect(await h.ok('calculate', { expression })).toMatchObject({ value });
  });

  it('converts and combines units', async () => {
    expect(await h.ok('calculate', { expression: '12 inch to cm' })).toMatchObject({ result: '30.48 cm' });
    expect(await h.ok('calculate', { expression: '60 km/h * 2 h' })).toMatchObject({ result: '120 km' });
  });

  it('uses named variables and returns matrices as arrays', async () => {
    expect(
      await h.ok('calculate', {
        expression: 'principal * (1 + rate)^years',
        variables: { principal: 1000, rate: 0.05, years: 2 },
      }),
    ).toMatchObject({ value: 1102.5 });
    expect(await h.ok('calculate', { expression: '[1, 2; 3, 4] * 2' })).toMatchObject({
      value: [
        [2, 4],
        [6, 8],
      ],
    });
  });

  it('formats to the requested precision', async () => {
    expect(await h.ok('calculate', { expression: '1/3', precision: 3 })).toMatchObject({ result: '0.333' });
  });
});
