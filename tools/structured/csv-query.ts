/** csv_query: select columns, filter, sort and page through CSV data; the query runs in a CPU worker. */
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { type StructuredDeps, structuredDeclaration } from './common';
import { runStructured } from './cpu';
import { OPERATORS } from './csv-filter';
import { readTextSource } from './text-source';

export const CSV_BOUND_MS = 5000;

const condition = z.object({
  column: z.string().describe('Header text, or col1, col2…'),
  op: z.enum(OPERATORS).describe('matches takes a regex.'),
  value: z.union([z.string(), z.number()]).optional(),
});

export function csvQuery(deps: StructuredDeps) {
  return defineTool({
    id: 'csv_query',
    title: 'Query CSV data',
    description:
      'Queries CSV text or a workspace file: select columns, keep rows where every condition holds, sort, page. ' +
      'Delimiter and header are detected.',
    input: z.object({
      csv: z.string().optional().describe('Give this or file.'),
      file: WORKSPACE_PATH.optional(),
      delimiter: z.string().min(1).max(4).optional(),
      header: z.union([z.boolean(), z.literal('auto')]).default('auto'),
      select: z.array(z.string()).optional(),
      where: z.array(condition).max(20).default([]),
      ignoreCase: z.boolean().default(false),
      sort: z
        .array(z.object({ column: z.string(), order: z.enum(['asc', 'desc']).default('asc') }))
        .max(5)
        .default([]),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(10_000).default(100),
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
          'Query a smaller file or part of it, use fewer conditions, and write "matches" patterns without nested ' +
          'quantifiers such as "(a+)+".',
        signal: ctx.signal,
      });
      return jsonSuccess(value);
    },
  });
}
