/**
 * json_transform (docs/architecture.md#tool-families): reshapes JSON with a short pipeline of
 * jq-style operations (see json-transform.ts), e.g. the output of app_list or http_request inside a
 * batch via "{0}". A failing step is reported as INVALID_ARGUMENT naming `pipeline[i]` and its
 * operation.
 */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { TransformError, applyTransform, transformStepSchema } from './json-transform';

export const MAX_TRANSFORM_STEPS = 32;

export function jsonTransformTool() {
  return defineTool({
    id: 'json_transform',
    title: 'Transform JSON',
    description:
      'Reshapes JSON by steps: get path; where path cmp value; ' +
      'map path or fields; sort_by path; group_by path; unique; ' +
      'limit count from offset. A path looks like "a[0].b".',
    input: z.object({
      // What a transform can work on: the value itself, or JSON text of it.
      data: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()), z.string()]),
      pipeline: z.array(transformStepSchema).max(MAX_TRANSFORM_STEPS),
    }),
    metadata: { category: 'orchestration', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    run(args) {
      if (args.data === undefined) {
        throw new ToolCallError('INVALID_ARGUMENT', 'Invalid arguments: missing required argument "data".', {
          data: { fields: ['data'] },
        });
      }
      try {
        return jsonSuccess(applyTransform(parseIfJsonText(args.data), args.pipeline));
      } catch (e) {
        if (!(e instanceof TransformError)) throw e;
        throw new ToolCallError('INVALID_ARGUMENT', `Transform failed at ${e.message}.`, {
          hint:
            'Fix that step (or the data it receives) and retry; check ' +
            'the shape of the data with a shorter pipeline first.',
          data: { fields: [`pipeline[${e.step}]`], step: e.step, op: e.op },
        });
      }
    },
  });
}

/** A string that holds a JSON object or array is that value; any other string is data as it is. */
function parseIfJsonText(data: unknown): unknown {
  if (typeof data !== 'string' || !/^\s*[[{]/.test(data)) return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
