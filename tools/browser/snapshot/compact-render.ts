/**
 * Renders Playwright's AI-mode ARIA tree (`page.ariaSnapshotJSON({ mode: 'ai' })`, refs included,
 * iframes and open shadow DOM merged) as a compact text for a model's context:
 * one line per meaningful node, layout wrappers dropped, a table row on one line, a paragraph with
 * inline links on one line, labels that repeat a field's name dropped. Every interactive element
 * keeps its ref, so browser_click/input/select/toggle can address it.
 *
 * Line grammar (documented for the model in browser_snapshot's description):
 *   e12 button "Save" disabled          interactive element: ref, role, name, states
 *   e5 textbox "Email" = "a@b.c"         current value
 *   e8 combobox "Size" = "M" options: S | M | L
 *   e9 link "Docs" -> /docs              link target
 *   ## Heading                           heading level by #
 *   - list item text [e4 link "more"]   list item; bracketed elements are inline
 *   1 | Alice | [e20 button "Edit"]      table row, cells separated by |
 *   e3 navigation "Main":               section; its content is indented below
 */
import type { AriaJsonNode } from './aria-json';
import { isAriaNode } from './aria-json';

export interface RefInfo {
  role: string;
  name: string;
}

export interface CompactSnapshot {
  text: string;
  refs: Map<string, RefInfo>;
  lines: number;
  truncated: boolean;
}

const INTERACTIVE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'switch',
  'combobox',
  'listbox',
  'slider',
  'spinbutton',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
]);
/** Shown as a header line even without a name: they tell the model where it is. */
const LANDMARKS = new Set([
  'iframe',
  'dialog',
  'alertdialog',
  'main',
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'form',
  'search',
  'table',
  'grid',
  'treegrid',
  'tabpanel',
]);
/** Structure that never goes on an inline line. */
const BLOCK = new Set([
  ...LANDMARKS,
  'heading',
  'list',
  'listitem',
  'row',
  'rowgroup',
  'region',
  'tablist',
  'menu',
  'menubar',
  'toolbar',
  'radiogroup',
  'tree',
  'group',
  'article',
  'figure',
  'separator',
]);
const CELLS = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
const NOTICES = new Set(['alert', 'status', 'log', 'marquee', 'timer', 'note']);
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'slider', 'combobox', 'progressbar', 'meter']);
const MAX_TEXT = 300;
const MAX_NAME = 150;
const MAX_OPTIONS = 25;

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
/** Compares a label text with a name regardless of case, spacing and a trailing ":" or "*". */
const labelKey = (s: string) =>
  norm(s)
    .replace(/[\s:*]+$/, '')
    .toLowerCase();
const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const quote = (s: string) => JSON.stringify(clip(norm(s), MAX_NAME));

function kids(node: AriaJsonNode): Array<AriaJsonNode | string> {
  if (node.children) return node.children;
  return node.text !== undefined && !VALUE_ROLES.has(node.role) ? [node.text] : [];
}

/**
 * Clickable without an interactive role: a pointer-cursor element, or a generic that has a name of
 * its own (Chrome names a <summary> from its content, and a summary toggles its <details>).
 */
function isClickable(node: AriaJsonNode): boolean {
  if (!node.ref || INTERACTIVE.has(node.role)) return false;
  return node.cursor === 'pointer' || (node.role === 'generic' && !!node.name);
}

// Both questions are asked about the same node from several places; a 1,000-row table makes the
// repeated walks show up in the snapshot time, so the answers are remembered per node.
const interactiveInside = new WeakMap<AriaJsonNode, boolean>();
const meaningful = new WeakMap<AriaJsonNode, Array<AriaJsonNode | string>>();

function hasInteractive(node: AriaJsonNode): boolean {
  let known = interactiveInside.get(node);
  if (known === undefined) {
    known = kids(node).some((c) => isAriaNode(c) && (INTERACTIVE.has(c.role) || isClickable(c) || hasInteractive(c)));
    interactiveInside.set(node, known);
  }
  return known;
}

/** Children minus label texts that only repeat a sibling's or the parent's name. */
function meaningfulKids(node: AriaJsonNode): Array<AriaJsonNode | string> {
  let known = meaningful.get(node);
  if (!known) {
    known = withoutRepeatedLabels(node);
    meaningful.set(node, known);
  }
  return known;
}

function withoutRepeatedLabels(node: AriaJsonNode): Array<AriaJsonNode | string> {
  const all = kids(node);
  const names = new Set<string>();
  if (node.name) names.add(labelKey(node.name));
  for (const c of all) if (isAriaNode(c) && c.name) names.add(labelKey(c.name));
  return all.filter((c) => isAriaNode(c) || (norm(c) !== '' && !names.has(labelKey(c))));
}

/** Options of a native select: summarised on the select's line (they have no refs of their own). */
function optionSummary(node: AriaJsonNode): { value: string[]; options: string[] } | undefined {
  const options = kids(node).filter((c): c is AriaJsonNode => isAriaNode(c) && c.role === 'option' && !c.ref);
  if (options.length === 0) return undefined;
  return {
    value: options.filter((o) => o.selected).map((o) => norm(o.name ?? '')),
    options: options.map((o) => norm(o.name ?? '')),
  };
}

function leaf(node: AriaJsonNode, refs: Map<string, RefInfo>): string {
  const clickable = isClickable(node);
  const role = clickable ? 'clickable' : node.role;
  const summary = optionSummary(node);
  let name = node.name ?? '';
  if (!name && !VALUE_ROLES.has(node.role)) name = inlineText(node, refs, false);
  const parts: string[] = [];
  if (node.ref) {
    parts.push(node.ref);
    refs.set(node.ref, { role, name: norm(name) });
  }
  parts.push(role);
  if (name) parts.push(quote(name));
  if (node.checked === true) parts.push('checked');
  if (node.checked === 'mixed') parts.push('mixed');
  if (node.pressed === true) parts.push('pressed');
  if (node.pressed === 'mixed') parts.push('pressed=mixed');
  if (node.selected) parts.push('selected');
  if (node.expanded) parts.push('expanded');
  if (node.disabled) parts.push('disabled');
  if (node.invalid) parts.push('invalid');
  if (node.active) parts.push('focused');
  if (summary) {
    if (summary.value.length > 0) parts.push(`= ${summary.value.map((v) => JSON.stringify(v)).join(', ')}`);
    const shown = summary.options.slice(0, MAX_OPTIONS).join(' | ');
    const more = summary.options.length > MAX_OPTIONS ? ` | …+${summary.options.length - MAX_OPTIONS}` : '';
    parts.push(`options: ${shown}${more}`);
  } else if (VALUE_ROLES.has(node.role) && node.text !== undefined) {
    parts.push(`= ${JSON.stringify(clip(node.text, MAX_TEXT))}`);
  }
  if (node.placeholder && norm(node.placeholder) !== norm(name)) parts.push(`placeholder=${quote(node.placeholder)}`);
  if (node.url && !/^(#|javascript:)/i.test(node.url)) parts.push(`-> ${clip(node.url, 120)}`);
  return parts.join(' ');
}

/** The node's content on one line: text, with interactive elements as `[e5 button "Go"]`. */
function inlineText(node: AriaJsonNode, refs: Map<string, RefInfo>, brackets = true): string {
  const pieces: string[] = [];
  for (const c of meaningfulKids(node)) {
    if (!isAriaNode(c)) pieces.push(norm(c));
    else if (INTERACTIVE.has(c.role) || isClickable(c))
      pieces.push(brackets ? `[${leaf(c, refs)}]` : norm(c.name ?? inlineText(c, refs, false)));
    else if (c.role === 'img') {
      if (c.name) pieces.push(`[img ${quote(c.name)}]`);
    } else pieces.push(inlineText(c, refs, brackets));
  }
  return clip(pieces.filter(Boolean).join(' '), MAX_TEXT * 2);
}

/** True when the whole subtree can sit on one line without losing structure. */
function inlineable(node: AriaJsonNode, budget = { nodes: 16 }): boolean {
  for (const c of kids(node)) {
    if (!isAriaNode(c)) continue;
    if (--budget.nodes < 0 || BLOCK.has(c.role) || CELLS.has(c.role)) return false;
    if (INTERACTIVE.has(c.role) || isClickable(c)) {
      if (hasInteractive(c)) return false;
      continue;
    }
    if (!inlineable(c, budget)) return false;
  }
  return true;
}

class Writer {
  readonly lines: string[] = [];
  readonly refs = new Map<string, RefInfo>();
  private size = 0;
  truncated = false;

  constructor(private readonly maxChars: number) {}

  push(depth: number, line: string): void {
    if (this.truncated || line.trim() === '') return;
    const text = `${' '.repeat(depth)}${line}`;
    if (this.size + text.length + 1 > this.maxChars) {
      this.truncated = true;
      return;
    }
    this.size += text.length + 1;
    this.lines.push(text);
  }
}

function renderKids(node: AriaJsonNode, depth: number, out: Writer): void {
  for (const c of meaningfulKids(node)) {
    if (isAriaNode(c)) renderNode(c, depth, out);
    else out.push(depth, clip(norm(c), MAX_TEXT));
  }
}

function renderNode(node: AriaJsonNode, depth: number, out: Writer): void {
  const role = node.role;
  if (role === 'text') return out.push(depth, clip(norm(node.text ?? ''), MAX_TEXT));
  if (INTERACTIVE.has(role) || isClickable(node)) {
    out.push(depth, leaf(node, out.refs));
    if (hasInteractive(node)) {
      for (const c of kids(node))
        if (isAriaNode(c) && (c.ref || hasInteractive(c)) && !(c.role === 'option' && !c.ref))
          renderNode(c, depth + 1, out);
    }
    return;
  }
  if (role === 'heading') {
    const title = hasInteractive(node) || !node.name ? inlineText(node, out.refs) : norm(node.name);
    return out.push(depth, `${'#'.repeat(Math.min(node.level ?? 2, 6))} ${title}`);
  }
  if (role === 'row') {
    const cells = kids(node).map((c) =>
      isAriaNode(c) ? inlineText(c, out.refs) || (c.name ? norm(c.name) : '') : norm(c),
    );
    const prefix = isClickable(node)
      ? `${leaf({ ...node, children: [], text: undefined, name: node.name ?? '' }, out.refs)}: `
      : '';
    return out.push(depth, prefix + cells.join(' | '));
  }
  if (CELLS.has(role)) return out.push(depth, inlineText(node, out.refs) || norm(node.name ?? ''));
  if (role === 'listitem') {
    if (inlineable(node)) return out.push(depth, `- ${inlineText(node, out.refs)}`);
    out.push(depth, '-');
    return renderKids(node, depth + 1, out);
  }
  if (role === 'img' || role === 'image') {
    if (node.name) out.push(depth, `img ${quote(node.name)}`);
    return;
  }
  if (VALUE_ROLES.has(role)) return out.push(depth, leaf(node, out.refs));
  if (NOTICES.has(role)) {
    const said = inlineText(node, out.refs);
    return said ? out.push(depth, `${role}: ${said}`) : undefined;
  }
  if (LANDMARKS.has(role) || (node.name && BLOCK.has(role))) {
    // Sections keep their ref: they are what a model scrolls inside or screenshots.
    if (node.ref) out.refs.set(node.ref, { role, name: norm(node.name ?? '') });
    out.push(depth, `${node.ref ? `${node.ref} ` : ''}${role}${node.name ? ` ${quote(node.name)}` : ''}:`);
    return renderKids(node, depth + 1, out);
  }
  // Layout wrappers and text containers: one line when the content is flat text, otherwise their children in place.
  const content = meaningfulKids(node);
  if (content.some((c) => !isAriaNode(c)) && inlineable(node)) return out.push(depth, inlineText(node, out.refs));
  if (node.name && !['generic', 'none', 'presentation'].includes(role)) out.push(depth, `${role} ${quote(node.name)}`);
  renderKids(node, depth, out);
}

export function renderCompact(nodes: readonly AriaJsonNode[], maxChars = 200_000): CompactSnapshot {
  const out = new Writer(maxChars);
  for (const node of nodes) renderNode(node, 0, out);
  return { text: out.lines.join('\n'), refs: out.refs, lines: out.lines.length, truncated: out.truncated };
}
