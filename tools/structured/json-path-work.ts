/**
 * json_path's heavy part, run in a CPU worker: JSON parsing and JSONPath evaluation
 * (`jsonpath-plus`) with script evaluation disabled, so a path can never run code.
 */
import { JSONPath } from 'jsonpath-plus';
import { ToolCallError } from '../core/result';

export interface JsonPathInput {
  path: string;
  /** The document as text, or undefined when `data` holds it as a value. */
  json: string | undefined;
  data: unknown;
  maxResults: number;
}

export interface JsonPathMatch {
  path: string;
  pointer: string;
  value: unknown;
}

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

export function jsonPathTask(input: JsonPathInput): { count: number; truncated: boolean; matches: JsonPathMatch[] } {
  const document = input.json !== undefined ? parseJson(input.json) : input.data;
  let found: JsonPathMatch[];
  try {
    const raw = JSONPath({
      path: input.path,
      json: document as object,
      eval: false,
      resultType: 'all',
      wrap: true,
    }) as JsonPathMatch[];
    found = raw.map((r) => ({ path: r.path, pointer: r.pointer, value: r.value }));
  } catch (e) {
    const message = (e as Error).message;
    const isScript = /prevented|eval/i.test(message);
    throw new ToolCallError('INVALID_ARGUMENT', `JSONPath "${input.path}" cannot be evaluated: ${message}`, {
      hint: isScript
        ? 'Filter and script expressions are disabled. Select the array (e.g. "$.items[*]") and filter the returned ' +
          'values yourself, or use json_transform.'
        : 'Fix the JSONPath syntax, e.g. "$.a.b[0]" or "$..name".',
      data: { fields: ['path'] },
    });
  }
  const truncated = found.length > input.maxResults;
  const matches = truncated ? found.slice(0, input.maxResults) : found;
  return { count: matches.length, truncated, matches };
}
