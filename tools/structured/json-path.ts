/**
 * json_path: JSONPath queries (`jsonpath-plus`) with script evaluation disabled, so a path can
 * never run code: `?()` filters and `()` script expressions are refused with a hint.
 */
import { JSONPath } from 'jsonpath-plus';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';

const MAX_JSON_CHARS = 5_000_000;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ToolCallError('INVALID_ARGUMENT', `"json" is not valid JSON: ${(e as Error).message}.`, {
      hint: 'Pass the document as JSON text in "json", or as a value in "data".',
      data: { fields: ['json'] },
    });
  }
}

export const jsonPath = defineTool({
  id: 'json_path',
  title: 'Query JSON with JSONPath',
  description:
    'Selects values from a JSON document with a JSONPath expression such as "$.store.book[*].title", "$..price" or "$.items[0:3]". Returns each match with its path and JSON Pointer. Filter and script expressions (?() and ()) are disabled.',
  input: z.object({
    path: z.string().min(1).max(2000).describe('JSONPath expression, e.g. "$.store.book[*].author" or "$..id".'),
    json: z.string().max(MAX_JSON_CHARS).optional().describe('The JSON document as text. Give this or "data".'),
    data: z.unknown().optional().describe('The JSON document as a value. Give this or "json".'),
    maxResults: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(1000)
      .describe('Return at most this many matches (default 1000).'),
  }),
  ...structuredDeclaration,
  run: (args) => {
    if ((args.json === undefined) === (args.data === undefined)) {
      throw new ToolCallError('INVALID_ARGUMENT', 'Give exactly one of "json" (JSON text) or "data" (a JSON value).', {
        data: { fields: ['json', 'data'] },
      });
    }
    const document = args.json !== undefined ? parseJson(args.json) : args.data;
    let found: Array<{ path: string; pointer: string; value: unknown }>;
    try {
      const raw = JSONPath({
        path: args.path,
        json: document as object,
        eval: false,
        resultType: 'all',
        wrap: true,
      }) as Array<{
        path: string;
        pointer: string;
        value: unknown;
      }>;
      found = raw.map((r) => ({ path: r.path, pointer: r.pointer, value: r.value }));
    } catch (e) {
      const message = (e as Error).message;
      const isScript = /prevented|eval/i.test(message);
      throw new ToolCallError('INVALID_ARGUMENT', `JSONPath "${args.path}" cannot be evaluated: ${message}`, {
        hint: isScript
          ? 'Filter and script expressions are disabled. Select the array (e.g. "$.items[*]") and filter the returned values yourself, or use json_transform.'
          : 'Fix the JSONPath syntax, e.g. "$.a.b[0]" or "$..name".',
        data: { fields: ['path'] },
      });
    }
    const truncated = found.length > args.maxResults;
    const matches = truncated ? found.slice(0, args.maxResults) : found;
    return jsonSuccess({ count: matches.length, truncated, matches });
  },
});
