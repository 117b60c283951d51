/**
 * json_path: JSONPath queries with script evaluation disabled, so a path can never run code:
 * `?()` filters and `()` script expressions are refused with a hint. Parsing and evaluation run
 * in a CPU worker (json-path-work.ts).
 */
import { z } from 'zod';
import { JSON_VALUE } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';
import { runStructured } from './cpu';

const MAX_JSON_CHARS = 5_000_000;
export const JSON_PATH_BOUND_MS = 5000;

export const jsonPath = defineTool({
  id: 'json_path',
  title: 'Query JSON with JSONPath',
  description:
    'Selects values from JSON (json text, or data) with JSONPath, e.g. "$..price", each with its path; no ?() filters.',
  input: z.object({
    path: z.string().min(1).max(2000),
    json: z.string().max(MAX_JSON_CHARS).optional(),
    data: JSON_VALUE.optional(),
    maxResults: z.number().int().min(1).max(10_000).default(1000),
  }),
  ...structuredDeclaration,
  run: async (args, ctx) => {
    if ((args.json === undefined) === (args.data === undefined)) {
      throw new ToolCallError('INVALID_ARGUMENT', 'Give exactly one of "json" (JSON text) or "data" (a JSON value).', {
        data: { fields: ['json', 'data'] },
      });
    }
    const value = await runStructured('json.path', {
      toolId: 'json_path',
      input: { path: args.path, json: args.json, data: args.data, maxResults: args.maxResults },
      boundMs: JSON_PATH_BOUND_MS,
      whenBound: 'query a smaller document or use a more specific path',
      boundHint: 'Use a more specific path (".." on a large document visits every node), or pass a smaller document.',
      signal: ctx.signal,
    });
    return jsonSuccess(value);
  },
});
