/**
 * Vets a parsed mathjs expression before it is compiled: an allowlist of node types, functions and
 * symbols, and a bound on matrix sizes. What is refused: definitions and assignments (functions
 * that recurse), property access (`a.constructor`, `__proto__`), objects and strings, any function
 * not on the list (import, evaluate, zeros, reshape…), and matrices large or deep enough to
 * exhaust memory. Only numbers, units, booleans and small matrices get through.
 */
import type { MathNode } from 'mathjs';
import { ToolCallError } from '../core/result';
import { math } from './math-instance';

export const MAX_MATRIX_ELEMENTS = 1000;
const MAX_MATRIX_DEPTH = 2;

/** Functions that neither evaluate code nor create data much larger than their arguments. */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set(
  (
    'abs acos acosh acot acoth acsc acsch asec asech asin asinh ' +
    'atan atan2 atanh cbrt ceil cos cosh cot coth csc csch ' +
    'exp expm1 fix floor gcd hypot lcm log log10 log1p log2 mod nthRoot pow round sec sech sign sin sinh sqrt square ' +
    'tan tanh cube factorial gamma combinations permutations isPrime max min mean median mode sum prod std variance ' +
    'det inv transpose dot cross norm size trace re im conj arg complex to add subtract multiply divide unaryMinus ' +
    'compare equal unequal larger largerEq smaller smallerEq and ' +
    'or not xor bitAnd bitOr bitXor leftShift rightArithShift ' +
    'deg rad isInteger isNegative isPositive isZero isNaN cumsum sort abs distance lgamma erf'
  ).split(' '),
);

export const CONSTANTS: ReadonlySet<string> = new Set([
  'pi',
  'e',
  'tau',
  'phi',
  'i',
  'true',
  'false',
  'LN2',
  'LN10',
  'LOG2E',
  'LOG10E',
  'SQRT1_2',
  'SQRT2',
]);

function refuse(
  message: string,
  hint = 'Write a plain arithmetic expression: numbers, units, + - * ' +
    '/ ^, and functions such as sqrt, sin, log, round, sum, mean.',
): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { hint, data: { fields: ['expression'] } });
}

type Fields = Record<string, unknown>;

function fields(node: MathNode): Fields {
  return node as unknown as Fields;
}

/** A numeric literal, possibly signed: the only thing a range bound may be. */
function literalNumber(node: MathNode): number | undefined {
  const f = fields(node);
  if (node.type === 'ConstantNode' && typeof f.value === 'number') return f.value;
  if (node.type === 'OperatorNode' && (f.fn === 'unaryMinus' || f.fn === 'unaryPlus')) {
    const inner = (f.args as MathNode[])[0];
    const v = inner ? literalNumber(inner) : undefined;
    return v === undefined ? undefined : f.fn === 'unaryMinus' ? -v : v;
  }
  if (node.type === 'ParenthesisNode') return literalNumber(f.content as MathNode);
  return undefined;
}

class Vetter {
  private elements = 0;

  constructor(private readonly variables: ReadonlySet<string>) {}

  private count(n: number): void {
    this.elements += n;
    if (this.elements > MAX_MATRIX_ELEMENTS) {
      throw refuse(
        `Matrices and ranges in the expression would hold more than ${MAX_MATRIX_ELEMENTS} elements.`,
        'Use smaller matrices or ranges.',
      );
    }
  }

  vet(node: MathNode, depth: number): void {
    const f = fields(node);
    switch (node.type) {
      case 'ConstantNode':
        if (typeof f.value !== 'number' && typeof f.value !== 'boolean')
          throw refuse('Strings and other non-numeric literals are not supported.');
        return;
      case 'SymbolNode':
        return this.vetSymbol(String(f.name));
      case 'ParenthesisNode':
        return this.vet(f.content as MathNode, depth);
      case 'OperatorNode':
      case 'RelationalNode':
        for (const child of (f.args ?? f.params) as MathNode[]) this.vet(child, depth);
        return;
      case 'ConditionalNode':
        for (const key of ['condition', 'trueExpr', 'falseExpr']) this.vet(f[key] as MathNode, depth);
        return;
      case 'FunctionNode':
        return this.vetCall(f, depth);
      case 'ArrayNode':
        return this.vetMatrix(f.items as MathNode[], depth);
      case 'RangeNode':
        return this.vetRange(f, depth);
      case 'AccessorNode':
        return this.vetAccessor(f, depth);
      case 'FunctionAssignmentNode':
        throw refuse('Defining functions is not allowed.');
      case 'AssignmentNode':
      case 'BlockNode':
        throw refuse(
          'Assignments and multiple statements are not allowed.',
          'Pass values through "variables" and write one expression.',
        );
      case 'ObjectNode':
        throw refuse('Objects are not supported.');
      default:
        throw refuse(`${node.type} is not supported in a calculation.`);
    }
  }

  private vetSymbol(name: string): void {
    if (this.variables.has(name) || CONSTANTS.has(name)) return;
    if (ALLOWED_FUNCTIONS.has(name)) throw refuse(`"${name}" is a function; call it with arguments, e.g. ${name}(2).`);
    if (math.Unit.isValuelessUnit(name)) return;
    throw refuse(
      `Unknown symbol "${name}".`,
      'Use numbers, known units (cm, kg, h…), constants (pi, e), or pass the value in "variables".',
    );
  }

  private vetCall(f: Fields, depth: number): void {
    const fn = f.fn as MathNode;
    const name = fn.type === 'SymbolNode' ? String(fields(fn).name) : undefined;
    if (name === undefined || !ALLOWED_FUNCTIONS.has(name)) {
      throw refuse(
        `Function "${name ?? fn.type}" is not allowed in a calculation.`,
        'Use arithmetic and common functions: sqrt, abs, round, ' +
          'floor, exp, log, sin, cos, tan, min, max, sum, mean, gcd, mod…',
      );
    }
    for (const arg of f.args as MathNode[]) this.vet(arg, depth);
  }

  private vetMatrix(items: MathNode[], depth: number): void {
    if (depth + 1 > MAX_MATRIX_DEPTH)
      throw refuse(`Matrices may have at most ${MAX_MATRIX_DEPTH} dimensions here.`, 'Use vectors or 2-D matrices.');
    this.count(items.length);
    for (const item of items) this.vet(item, depth + 1);
  }

  private vetRange(f: Fields, depth: number): void {
    if (depth + 1 > MAX_MATRIX_DEPTH)
      throw refuse(`Matrices may have at most ${MAX_MATRIX_DEPTH} dimensions here.`, 'Use vectors or 2-D matrices.');
    const start = literalNumber(f.start as MathNode);
    const end = literalNumber(f.end as MathNode);
    const step = f.step ? literalNumber(f.step as MathNode) : 1;
    if (start === undefined || end === undefined || step === undefined)
      throw refuse('Range bounds must be number literals, e.g. 1:10 or 0:0.5:3.');
    if (step === 0 || !Number.isFinite(start) || !Number.isFinite(end) || !Number.isFinite(step))
      throw refuse('A range needs finite bounds and a non-zero step.');
    this.count(Math.max(0, Math.floor((end - start) / step) + 1));
  }

  private vetAccessor(f: Fields, depth: number): void {
    const index = fields(f.index as MathNode);
    if (index.dotNotation) throw refuse('Property access (a.b) is not allowed.');
    this.vet(f.object as MathNode, depth);
    for (const dim of index.dimensions as MathNode[]) this.vet(dim, 0);
  }
}

export function vetExpression(node: MathNode, variables: ReadonlySet<string>): void {
  new Vetter(variables).vet(node, 0);
}
