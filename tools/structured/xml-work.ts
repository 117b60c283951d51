/** xml_extract's heavy part, run in a CPU worker: parse the XML and evaluate the XPath subset. */
import { evaluateXPath } from './xml-path';
import { parseXml, textContent } from './xml-tree';

const MAX_TEXT_PER_MATCH = 10_000;

function clip(text: string): string {
  return text.length > MAX_TEXT_PER_MATCH ? `${text.slice(0, MAX_TEXT_PER_MATCH)}…` : text;
}

export interface XmlExtractInput {
  text: string;
  xpath: string;
  removeNamespacePrefix: boolean;
  maxResults: number;
}

export interface XmlExtractOutput {
  kind: 'element' | 'attribute' | 'text';
  count: number;
  truncated: boolean;
  matches: unknown[];
}

export function xmlExtractTask(input: XmlExtractInput): XmlExtractOutput {
  const document = parseXml(input.text, { removeNamespacePrefix: input.removeNamespacePrefix });
  const result = evaluateXPath(document, input.xpath);
  const all: unknown[] =
    result.kind === 'element'
      ? result.nodes.map((n) => ({ name: n.name, attributes: n.attributes, text: clip(textContent(n).trim()) }))
      : result.kind === 'attribute'
        ? result.values.map((a) => ({ element: a.element.name, name: a.name, value: a.value }))
        : result.values.map(clip);
  return {
    kind: result.kind,
    count: Math.min(all.length, input.maxResults),
    truncated: all.length > input.maxResults,
    matches: all.slice(0, input.maxResults),
  };
}
