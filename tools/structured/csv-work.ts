/** csv_query's heavy part, run in a CPU worker: parse, filter, sort and page the table. */
import { type Condition, type SortKey, filterRows, sortRows } from './csv-filter';
import { columnIndex, parseTable } from './csv-table';

export interface CsvQueryInput {
  text: string;
  delimiter: string | undefined;
  header: boolean | 'auto';
  select: string[] | undefined;
  where: Condition[];
  ignoreCase: boolean;
  sort: SortKey[];
  offset: number;
  limit: number;
}

export interface CsvQueryOutput {
  columns: string[];
  hasHeader: boolean;
  delimiter: string;
  totalRows: number;
  matchedRows: number;
  returned: number;
  rows: Array<Record<string, string>>;
}

export function csvQueryTask(input: CsvQueryInput): CsvQueryOutput {
  const table = parseTable(input.text, { delimiter: input.delimiter, header: input.header });
  const selected = (input.select ?? table.columns).map((name, i) => ({
    name,
    col: columnIndex(table, name, `select[${i}]`),
  }));
  const matching = sortRows(table, filterRows(table, input.where, input.ignoreCase), input.sort);
  const page = matching.slice(input.offset, input.offset + input.limit);
  const rows = page.map((row) => Object.fromEntries(selected.map(({ name, col }) => [name, row[col] ?? ''])));
  return {
    columns: selected.map((s) => s.name),
    hasHeader: table.hasHeader,
    delimiter: table.delimiter,
    totalRows: table.rows.length,
    matchedRows: matching.length,
    returned: rows.length,
    rows,
  };
}
