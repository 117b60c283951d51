/**
 * Where-filters and sorting for csv_query: numbers compare as numbers, everything else as text.
 * Runs in a CPU worker (csv-work.ts), whose bound also stops a `matches` pattern that backtracks.
 */
import { ToolCallError } from '../core/result';
import { compileRegex, testMatch } from '../common/safe-regex';
import { type Table, columnIndex, isNumeric } from './csv-table';

export const OPERATORS = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'empty',
  'notEmpty',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  column: string;
  op: Operator;
  value?: string | number | undefined;
}

export interface SortKey {
  column: string;
  order: 'asc' | 'desc';
}

export function compareCells(a: string, b: string): number {
  if (isNumeric(a) && isNumeric(b)) return Number(a) - Number(b);
  return a.localeCompare(b);
}

type RowTest = (row: string[]) => boolean;

function conditionTest(table: Table, c: Condition, index: number, ignoreCase: boolean): RowTest {
  const col = columnIndex(table, c.column, `where[${index}].column`);
  if (c.value === undefined && c.op !== 'empty' && c.op !== 'notEmpty') {
    throw new ToolCallError('INVALID_ARGUMENT', `Condition where[${index}] uses "${c.op}" but has no "value".`, {
      data: { fields: [`where[${index}].value`] },
    });
  }
  const fold = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const raw = c.value === undefined ? '' : String(c.value);
  const value = fold(raw);
  const cell = (row: string[]) => fold(row[col] ?? '');
  switch (c.op) {
    case 'eq':
      return (row) => compareCells(cell(row), value) === 0;
    case 'ne':
      return (row) => compareCells(cell(row), value) !== 0;
    case 'lt':
      return (row) => compareCells(cell(row), value) < 0;
    case 'lte':
      return (row) => compareCells(cell(row), value) <= 0;
    case 'gt':
      return (row) => compareCells(cell(row), value) > 0;
    case 'gte':
      return (row) => compareCells(cell(row), value) >= 0;
    case 'contains':
      return (row) => cell(row).includes(value);
    case 'startsWith':
      return (row) => cell(row).startsWith(value);
    case 'endsWith':
      return (row) => cell(row).endsWith(value);
    case 'matches': {
      const re = compileRegex(raw, ignoreCase ? 'i' : '', `where[${index}].value`);
      return (row) => testMatch(re, row[col] ?? '');
    }
    case 'empty':
      return (row) => (row[col] ?? '').trim() === '';
    case 'notEmpty':
      return (row) => (row[col] ?? '').trim() !== '';
  }
}

export function filterRows(table: Table, where: Condition[], ignoreCase: boolean): string[][] {
  const tests = where.map((c, i) => conditionTest(table, c, i, ignoreCase));
  return table.rows.filter((row) => tests.every((t) => t(row)));
}

export function sortRows(table: Table, rows: string[][], keys: SortKey[]): string[][] {
  const resolved = keys.map((k, i) => ({
    col: columnIndex(table, k.column, `sort[${i}].column`),
    sign: k.order === 'desc' ? -1 : 1,
  }));
  return [...rows].sort((a, b) => {
    for (const { col, sign } of resolved) {
      const d = compareCells(a[col] ?? '', b[col] ?? '');
      if (d !== 0) return d * sign;
    }
    return 0;
  });
}
