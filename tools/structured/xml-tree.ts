/**
 * XML text → a small element tree (`fast-xml-parser` in preserveOrder mode). DTD entity
 * declarations are refused before parsing, so "billion laughs" and external-entity tricks never
 * reach the parser; the five predefined entities and character references still decode.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ToolCallError } from '../core/result';

export interface XmlElement {
  kind: 'element';
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export interface XmlText {
  kind: 'text';
  text: string;
}
export type XmlNode = XmlElement | XmlText;

type Ordered = Record<string, unknown>;

function invalidXml(message: string, hint: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { hint, data: { fields: ['xml'] } });
}

function convert(items: unknown): XmlNode[] {
  if (!Array.isArray(items)) return [];
  const nodes: XmlNode[] = [];
  for (const item of items as Ordered[]) {
    for (const key of Object.keys(item)) {
      if (key === ':@') continue;
      if (key === '#text') {
        nodes.push({ kind: 'text', text: String(item[key]) });
      } else if (!key.startsWith('?') && !key.startsWith('!') && key !== '#comment') {
        const attrs = (item[':@'] ?? {}) as Record<string, unknown>;
        const attributes: Record<string, string> = {};
        for (const [name, value] of Object.entries(attrs)) attributes[name] = String(value);
        nodes.push({ kind: 'element', name: key, attributes, children: convert(item[key]) });
      }
    }
  }
  return nodes;
}

/** Parses XML into a document node whose children are the top-level elements. */
export function parseXml(xml: string, opts: { removeNamespacePrefix: boolean }): XmlElement {
  if (/<!ENTITY/i.test(xml)) {
    throw invalidXml(
      'The XML declares DTD entities (<!ENTITY …>), which are refused to prevent entity-expansion attacks.',
      'Remove the DOCTYPE entity declarations and retry.',
    );
  }
  const valid = XMLValidator.validate(xml, { allowBooleanAttributes: true });
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw invalidXml(
      `The XML is not well-formed: ${msg} (line ${line}, column ${col}).`,
      'Fix the XML at that position and retry.',
    );
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    allowBooleanAttributes: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    removeNSPrefix: opts.removeNamespacePrefix,
    processEntities: { enabled: true, maxEntityCount: 0, maxTotalExpansions: 100_000 },
    // Decodes numeric character references (&#65;) and common HTML names; deprecated but the only switch for it.
    htmlEntities: true,
  });
  return { kind: 'element', name: '#document', attributes: {}, children: convert(parser.parse(xml)) };
}

export function childElements(node: XmlElement): XmlElement[] {
  return node.children.filter((c): c is XmlElement => c.kind === 'element');
}

/** The concatenated text of an element and its descendants, as XPath's string(); iterative for deep input. */
export function textContent(node: XmlNode): string {
  let out = '';
  const stack: XmlNode[] = [node];
  while (stack.length > 0) {
    const next = stack.pop() as XmlNode;
    if (next.kind === 'text') out += next.text;
    else for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i] as XmlNode);
  }
  return out;
}

/** The element's own direct text (not its descendants'). */
export function ownText(node: XmlElement): string {
  return node.children.flatMap((c) => (c.kind === 'text' ? [c.text] : [])).join('');
}
