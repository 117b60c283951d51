/** csv_query: select columns, filter, sort and page through CSV data; the query runs in a CPU worker. */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { type StructuredDeps, structuredDeclaration } from './common';
import { runStructured } from './cpu';
import { OPERATORS } from './csv-filter';
import { readTextSource } from './text-source';

export const CSV_BOUND_MS = 5000;

const condition = z.object({
  column: z.string().describe('Column name (header text, or col1, col2… when the data has no header).'),
  op: z
    .enum(OPERATORS)
    .describe(
      'Comparison: eq ne lt lte gt gte (numbers compare numerically), contains startsWith endsWith, matches (regex), empty, notEmpty.',
    ),
  value: z
    .union([z.string(), z.number()])
    .optional()
    .describe('The value to compare with; not needed for empty/notEmpty.'),
});

export function csvQuery(deps: StructuredDeps) {
  return defineTool({
    id: 'csv_query',
    title: 'Query CSV data',
    description:
      'Runs a small query over CSV data: pick columns, filter rows with conditions (all must hold), sort, and page with offset/limit. Detects the delimiter (, ; tab |) and whether the first row is a header. Returns rows as objects keyed by column name.',
    input: z.object({
      csv: z.string().optional().describe('The CSV text. Give this or "file".'),
      file: z.string().optional().describe('A workspace-relative path of a CSV file to read instead of "csv".'),
      delimiter: z
        .string()
        .min(1)
        .max(4)
        .optional()
        .describe('Field delimiter; detected from the first line when omitted.'),
      header: z
        .union([z.boolean(), z.literal('auto')])
        .default('auto')
        .describe(
          'Whether the first row holds column names; "auto" decides by whether its cells are non-empty, distinct and non-numeric.',
        ),
      select: z.array(z.string()).optional().describe('Columns to return, in this order; all columns when omitted.'),
      where: z.array(condition).max(20).default([]).describe('Row conditions; a row is kept when all of them hold.'),
      ignoreCase: z.boolean().default(false).describe('Compare text case-insensitively in where conditions.'),
      sort: z
        .array(
          z.object({
            column: z.string().describe('Column to sort by.'),
            order: z.enum(['asc', 'desc']).default('asc').describe('Sort direction.'),
          }),
        )
        .max(5)
        .default([])
        .describe('Sort keys, most significant first.'),
      offset: z.number().int().min(0).default(0).describe('Skip this many matching rows.'),
      limit: z.number().int().min(1).max(10_000).default(100).describe('Return at most this many rows (default 100).'),
    }),
    ...structuredDeclaration,
    run: async (args, ctx) => {
      const text = await readTextSource(deps.workspaceRoot, {
        text: args.csv,
        file: args.file,
        textField: 'csv',
        fileField: 'file',
      });
      const { delimiter, header, select, where, ignoreCase, sort, offset, limit } = args;
      const value = await runStructured('csv.query', {
        toolId: 'csv_query',
        input: { text, delimiter, header, select, where, ignoreCase, sort, offset, limit },
        boundMs: CSV_BOUND_MS,
        whenBound: 'query less data or use simpler "matches" patterns',
        boundHint:
          'Query a smaller file or part of it, use fewer conditions, and write "matches" patterns without nested quantifiers such as "(a+)+".',
        signal: ctx.signal,
      });
      return jsonSuccess(value);
    },
  });
}
