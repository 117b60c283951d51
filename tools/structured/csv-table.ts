/** CSV text → a table (`csv-parse`): delimiter sniffing and header detection. */
import { parse } from 'csv-parse/sync';
import { ToolCallError } from '../core/result';

export interface Table {
  columns: string[];
  rows: string[][];
  delimiter: string;
  hasHeader: boolean;
}

const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'];

export function isNumeric(cell: string): boolean {
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(cell);
}

/** The candidate that occurs most often in the first line (quotes ignored); a comma by default. */
export function sniffDelimiter(text: string): string {
  const firstLine = (text.split(/\r?\n/, 1)[0] ?? '').replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = 0;
  for (const d of CANDIDATE_DELIMITERS) {
    const count = firstLine.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/** A first row is a header when its cells are non-empty, distinct and not numbers. */
export function looksLikeHeader(first: string[]): boolean {
  const cells = first.map((c) => c.trim());
  return cells.length > 0 && cells.every((c) => c !== '' && !isNumeric(c)) && new Set(cells).size === cells.length;
}

export function parseTable(text: string, opts: { delimiter?: string | undefined; header: boolean | 'auto' }): Table {
  const delimiter = opts.delimiter ?? sniffDelimiter(text);
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (e) {
    throw new ToolCallError('INVALID_ARGUMENT', `The CSV cannot be parsed: ${(e as Error).message}.`, {
      hint: 'Check quoting (a quote inside a field is written ""), or give the right "delimiter".',
      data: { fields: ['csv'] },
    });
  }
  const first = records[0] ?? [];
  const hasHeader = opts.header === 'auto' ? looksLikeHeader(first) : opts.header;
  const width = Math.max(0, ...records.map((r) => r.length));
  const columns = hasHeader ? first.map((c, i) => c.trim() || `col${i + 1}`) : [];
  for (let i = columns.length; i < width; i++) columns.push(`col${i + 1}`);
  return { columns, rows: hasHeader ? records.slice(1) : records, delimiter, hasHeader };
}

/** The index of a named column, or INVALID_ARGUMENT listing the columns that exist. */
export function columnIndex(table: Table, name: string, field: string): number {
  const i = table.columns.indexOf(name);
  if (i >= 0) return i;
  throw new ToolCallError('NOT_FOUND', `Column "${name}" (in "${field}") does not exist.`, {
    hint: `Use one of the columns: ${table.columns.slice(0, 50).join(', ')}.`,
    data: { fields: [field], columns: table.columns.slice(0, 50) },
  });
}
