/**
 * A quick reader for the one XML shape `uiautomator dump` writes: `<hierarchy rotation="N">` and
 * nested `<node …>` elements that hold everything in attributes, written by AOSP's XmlSerializer
 * (double-quoted values with `& < > "` and control characters escaped; no text, comments or
 * CDATA). Two regular expressions walk the tags and their attributes, and build the same tree
 * fast-xml-parser builds with ui-tree.ts's options (attribute values as written, `node` always a
 * list). Written here because on the host's answer path the general parser was the slowest part
 * of reading a dump: between an agent's calls the caches are cold, and there fast-xml-parser took
 * about four times as long as these two expressions on a 2 KB dump, a quarter of a millisecond
 * more per ui_dump (docs/architecture.md, "Tests and benchmarks", has the agent bench's figures).
 * test/devices/dump-scanner.test.ts shows both read every profile's dumps alike. Anything else it
 * meets (text, a comment, another element, a tag it cannot read, unbalanced tags, a repeated
 * attribute) and it returns undefined: the caller then parses with fast-xml-parser.
 */

export interface ScannedNode {
  node?: ScannedNode[];
  [attribute: string]: unknown;
}

/** One tag at the cursor: `/` when closing, the name, the attributes, `/` when self-closing. */
const TAG = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ELEMENTS = new Set(['hierarchy', 'node']);

function attributesOf(text: string): ScannedNode | undefined {
  const out: ScannedNode = {};
  for (const m of text.matchAll(ATTRIBUTE)) {
    const name = m[1]!;
    if (name === 'node' || Object.hasOwn(out, name)) return undefined;
    out[name] = m[2] ?? m[3] ?? '';
  }
  return out;
}

/** The dump's tree as `{ hierarchy: … }`, or undefined when the XML is not the shape it reads. */
export function scanDumpXml(xml: string): { hierarchy: ScannedNode } | undefined {
  let at = xml.startsWith('<?xml') ? xml.indexOf('?>') + 2 : 0;
  if (at === 1) return undefined;
  const open: Array<{ name: string; element: ScannedNode }> = [];
  let root: ScannedNode | undefined;
  for (;;) {
    const lt = xml.indexOf('<', at);
    const gap = xml.slice(at, lt < 0 ? xml.length : lt);
    if (gap.trim() !== '') return undefined;
    if (lt < 0) break;
    TAG.lastIndex = lt;
    const tag = TAG.exec(xml);
    if (!tag) return undefined;
    at = TAG.lastIndex;
    const [, closing, name = '', attributes = '', selfClosing] = tag;
    if (!ELEMENTS.has(name)) return undefined;
    if (closing) {
      if (attributes !== '' || selfClosing || open.pop()?.name !== name) return undefined;
      continue;
    }
    const element = attributesOf(attributes);
    if (!element) return undefined;
    const parent = open.at(-1);
    if (parent === undefined) {
      if (root !== undefined || name !== 'hierarchy') return undefined;
      root = element;
    } else {
      if (name !== 'node') return undefined;
      if (parent.element.node) parent.element.node.push(element);
      else parent.element.node = [element];
    }
    if (!selfClosing) open.push({ name, element });
  }
  return root !== undefined && open.length === 0 ? { hierarchy: root } : undefined;
}
