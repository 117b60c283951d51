/** text_transform: case conversions, trimming, slugs, encodings and counts, computed in a CPU worker. */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { runUtility } from './cpu';
import { TEXT_OPERATIONS } from './text-operations';

export const TEXT_TRANSFORM_BOUND_MS = 2000;

export const textTransform = defineTool({
  id: 'text_transform',
  title: 'Transform text',
  description:
    'One text operation: change case, trim, slugify, strip accents, sort or dedupe lines, encode or decode, or count.',
  input: z.object({
    operation: z.enum(TEXT_OPERATIONS),
    text: z.string().max(1_000_000),
  }),
  metadata: { category: 'utility', risk: 'LOW' },
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
    sensitiveAction: false,
  },
  runPolicy: 'quickRead',
  run: async (args, ctx) =>
    jsonSuccess(
      await runUtility('text.transform', {
        toolId: 'text_transform',
        input: args,
        boundMs: TEXT_TRANSFORM_BOUND_MS,
        whenBound: 'transform a shorter text',
        boundHint: 'Split the text and transform each part.',
        signal: ctx.signal,
      }),
    ),
});
