/** xml_extract: elements, attributes or text selected from XML by a simple XPath, in a CPU worker. */
import { z } from 'zod';
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
      'Selects elements, attributes or text from an XML document with a simple XPath: "/catalog/book/title", "//book[@id=\'b2\']", "//book[2]/@id", "//title/text()". A path without a leading "/" matches anywhere. DTD entity declarations are refused.',
    input: z.object({
      xpath: z
        .string()
        .min(1)
        .max(500)
        .describe(
          "The XPath subset: /a/b, //b, *, @attr, @*, text(), predicates [n], [last()], [@a], [@a='v'], [child='v'], [text()='v'].",
        ),
      xml: z.string().optional().describe('The XML document as text. Give this or "file".'),
      file: z.string().optional().describe('A workspace-relative path of an XML file to read instead of "xml".'),
      removeNamespacePrefix: z
        .boolean()
        .default(false)
        .describe('Strip namespace prefixes (ns:tag → tag) before matching.'),
      maxResults: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .default(100)
        .describe('Return at most this many matches (default 100).'),
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
