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
    'Applies one text operation: case (upper lower title sentence camel pascal snake kebab constant), whitespace (trim trimStart trimEnd collapseWhitespace), slugify, removeDiacritics, reverse, line operations (sortLines uniqueLines reverseLines), encodings (base64Encode/Decode, base64UrlEncode/Decode, urlEncode/Decode, htmlEncode/Decode, hexEncode/Decode), or count (characters, graphemes, words, lines, bytes).',
  input: z.object({
    operation: z.enum(TEXT_OPERATIONS).describe('The operation to apply.'),
    text: z.string().max(1_000_000).describe('The input text (at most 1,000,000 characters).'),
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
