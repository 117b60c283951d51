/** The simulated view tree: what uiautomator dumps, what taps hit and what the screen draws. */

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface UiNode {
  className: string;
  packageName: string;
  resourceId?: string;
  text?: string;
  contentDesc?: string;
  bounds: Rect;
  clickable?: boolean;
  focusable?: boolean;
  focused?: boolean;
  scrollable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  password?: boolean;
  selected?: boolean;
  enabled?: boolean;
  longClickable?: boolean;
  /** A text field: a tap focuses it and shows the keyboard. Identified by resourceId. */
  editable?: boolean;
  /** App-defined action a tap triggers. */
  action?: string;
  /** Scrollable containers: total content height, so swipes clamp. */
  scrollExtent?: number;
  children: UiNode[];
}

export function rect(left: number, top: number, right: number, bottom: number): Rect {
  return { left, top, right, bottom };
}

export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.left && x < r.right && y >= r.top && y < r.bottom;
}

export function intersect(a: Rect, b: Rect): Rect | null {
  const r = rect(
    Math.max(a.left, b.left),
    Math.max(a.top, b.top),
    Math.min(a.right, b.right),
    Math.min(a.bottom, b.bottom),
  );
  return r.left < r.right && r.top < r.bottom ? r : null;
}

/** Depth-first, in drawing order (parents before children, earlier siblings first). */
export function walk(node: UiNode, visit: (node: UiNode, depth: number) => void, depth = 0): void {
  visit(node, depth);
  for (const child of node.children) walk(child, visit, depth + 1);
}

/** The topmost node under the point that reacts to a tap (clickable, editable or with an action). */
export function hitTest(root: UiNode, x: number, y: number): UiNode | null {
  let hit: UiNode | null = null;
  walk(root, (node) => {
    if (contains(node.bounds, x, y) && (node.clickable || node.editable || node.action) && node.enabled !== false)
      hit = node;
  });
  return hit;
}

/** The topmost scrollable container under the point. */
export function scrollableAt(root: UiNode, x: number, y: number): UiNode | null {
  let hit: UiNode | null = null;
  walk(root, (node) => {
    if (node.scrollable && contains(node.bounds, x, y)) hit = node;
  });
  return hit;
}

export function findNode(root: UiNode, predicate: (node: UiNode) => boolean): UiNode | null {
  let found: UiNode | null = null;
  walk(root, (node) => {
    if (!found && predicate(node)) found = node;
  });
  return found;
}

/**
 * As Android's XmlSerializer writes attribute values: the markup characters, and tab and line breaks as character
 * references.
 */
function escapeXml(value: string): string {
  return value.replace(
    /[&<>"'\n\r\t]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? `&#${c.charCodeAt(0)};`,
  );
}

function nodeXml(node: UiNode, index: number): string {
  const b = node.bounds;
  const attrs: [string, string | boolean | number][] = [
    ['index', index],
    ['text', node.text ?? ''],
    ['resource-id', node.resourceId ?? ''],
    ['class', node.className],
    ['package', node.packageName],
    ['content-desc', node.contentDesc ?? ''],
    ['checkable', node.checkable ?? false],
    ['checked', node.checked ?? false],
    ['clickable', node.clickable ?? false],
    ['enabled', node.enabled ?? true],
    ['focusable', node.focusable ?? false],
    ['focused', node.focused ?? false],
    ['scrollable', node.scrollable ?? false],
    ['long-clickable', node.longClickable ?? false],
    ['password', node.password ?? false],
    ['selected', node.selected ?? false],
    ['bounds', `[${b.left},${b.top}][${b.right},${b.bottom}]`],
  ];
  const open = `<node ${attrs.map(([k, v]) => `${k}="${escapeXml(String(v))}"`).join(' ')}`;
  if (node.children.length === 0) return `${open} />`;
  return `${open}>${node.children.map((c, i) => nodeXml(c, i)).join('')}</node>`;
}

/** The exact shape `uiautomator dump` writes: one line, an XML declaration, then <hierarchy>. */
export function hierarchyXml(root: UiNode, rotation = 0): string {
  return (
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy ` +
    `rotation="${rotation}">${nodeXml(root, 0)}</hierarchy>`
  );
}
