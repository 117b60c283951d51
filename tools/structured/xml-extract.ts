/** xml_extract: elements, attributes or text selected from XML by a simple XPath, in a CPU worker. */
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { type StructuredDeps, structuredDeclaration } from './common';
import { runStructured } from './cpu';
import { readTextSource } from './text-source';

export const XML_BOUND_MS = 5000;

export function xmlExtract(deps: StructuredDeps) {
  return defineTool({
    id: 'xml_extract',
    title: 'Extract from XML',
    description:
      'Selects elements, attributes or text from XML text or a workspace file with simple XPath: /a/b, //b, *, @a, ' +
      "text(), [n], [last()], [@a='v'].",
    input: z.object({
      xpath: z.string().min(1).max(500),
      xml: z.string().optional().describe('Give this or file.'),
      file: WORKSPACE_PATH.optional(),
      removeNamespacePrefix: z.boolean().default(false),
      maxResults: z.number().int().min(1).max(10_000).default(100),
    }),
    ...structuredDeclaration,
    run: async (args, ctx) => {
      const text = await readTextSource(deps.workspaceRoot, {
        text: args.xml,
        file: args.file,
        textField: 'xml',
        fileField: 'file',
      });
      const value = await runStructured('xml.extract', {
        toolId: 'xml_extract',
        input: {
          text,
          xpath: args.xpath,
          removeNamespacePrefix: args.removeNamespacePrefix,
          maxResults: args.maxResults,
        },
        boundMs: XML_BOUND_MS,
        whenBound: 'use a smaller document or a more specific path',
        boundHint: 'Extract from a smaller document or part of it, or use a path without "//" at the start.',
        signal: ctx.signal,
      });
      return jsonSuccess(value);
    },
  });
}
