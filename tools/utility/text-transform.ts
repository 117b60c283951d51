/** text_transform: case conversions, trimming, slugs, encodings and counts. */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { OPERATIONS, TEXT_OPERATIONS, countText } from './text-operations';

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
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  runPolicy: 'quickRead',
  run: (args) => {
    if (args.operation === 'count') return jsonSuccess({ operation: 'count', counts: countText(args.text) });
    return jsonSuccess({ operation: args.operation, result: OPERATIONS[args.operation](args.text) });
  },
});
