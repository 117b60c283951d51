/** xml_extract: elements, attributes or text selected from XML by a simple XPath. */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { type StructuredDeps, structuredDeclaration } from './common';
import { readTextSource } from './text-source';
import { evaluateXPath } from './xml-path';
import { parseXml, textContent } from './xml-tree';

const MAX_TEXT_PER_MATCH = 10_000;

function clip(text: string): string {
  return text.length > MAX_TEXT_PER_MATCH ? `${text.slice(0, MAX_TEXT_PER_MATCH)}…` : text;
}

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
    run: async (args) => {
      const text = await readTextSource(deps.workspaceRoot, {
        text: args.xml,
        file: args.file,
        textField: 'xml',
        fileField: 'file',
      });
      const document = parseXml(text, { removeNamespacePrefix: args.removeNamespacePrefix });
      const result = evaluateXPath(document, args.xpath);
      const all: unknown[] =
        result.kind === 'element'
          ? result.nodes.map((n) => ({ name: n.name, attributes: n.attributes, text: clip(textContent(n).trim()) }))
          : result.kind === 'attribute'
            ? result.values.map((a) => ({ element: a.element.name, name: a.name, value: a.value }))
            : result.values.map(clip);
      const truncated = all.length > args.maxResults;
      return jsonSuccess({
        kind: result.kind,
        count: Math.min(all.length, args.maxResults),
        truncated,
        matches: all.slice(0, args.maxResults),
      });
    },
  });
}
