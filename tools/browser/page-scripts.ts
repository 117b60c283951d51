/**
 * JavaScript that runs inside the page. Written as source strings, not TypeScript functions: under
 * tsx (the host and the benches run on it) esbuild's keepNames wraps nested functions in a `__name()`
 * helper that does not exist in the page, so a serialized TS function would throw there. Playwright
 * evaluates a string as an expression and never calls it, so function sources are turned into real
 * functions with `pageFunction` (their text, which Playwright sends, stays exactly the source).
 */

export function pageFunction<Args extends unknown[], R>(source: string): (...args: Args) => R {
  return new Function(`return (${source});`)() as (...args: Args) => R;
}

/** Expression: the window's scroll position and range. */
export const SCROLL_STATE = `(() => {
  const s = document.scrollingElement || document.documentElement;
  return {
    x: window.scrollX,
    y: window.scrollY,
    maxX: Math.max(0, s.scrollWidth - window.innerWidth),
    maxY: Math.max(0, s.scrollHeight - window.innerHeight),
  };
})()`;

export interface ScrollMove {
  direction: 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom';
  amount: number | null;
}

export interface ScrollState {
  x: number;
  y: number;
  maxX: number;
  maxY: number;
}

const SCROLL_BY = `function (el, move) {
  const box = el || document.scrollingElement || document.documentElement;
  const viewW = el ? el.clientWidth : window.innerWidth;
  const viewH = el ? el.clientHeight : window.innerHeight;
  const stepY = move.amount || Math.round(viewH * 0.85);
  const stepX = move.amount || Math.round(viewW * 0.85);
  const d = move.direction;
  const target = el || window;
  if (d === 'top') target.scrollTo({ top: 0, behavior: 'instant' });
  else if (d === 'bottom') target.scrollTo({ top: box.scrollHeight, behavior: 'instant' });
  else {
    const left = d === 'left' ? -stepX : d === 'right' ? stepX : 0;
    const top = d === 'up' ? -stepY : d === 'down' ? stepY : 0;
    target.scrollBy({ left, top, behavior: 'instant' });
  }
  return {
    x: el ? el.scrollLeft : window.scrollX,
    y: el ? el.scrollTop : window.scrollY,
    maxX: Math.max(0, box.scrollWidth - viewW),
    maxY: Math.max(0, box.scrollHeight - viewH),
  };
}`;

/** Scrolls inside a scrollable element. */
export const scrollElement = pageFunction<[Element, ScrollMove], ScrollState>(SCROLL_BY);

/** Scrolls the window. */
export const scrollWindow = pageFunction<[ScrollMove], ScrollState>(
  `function (move) { return (${SCROLL_BY})(null, move); }`,
);

export interface ControlKind {
  tag: string;
  /** The input's type attribute (lower case, "text" when absent); empty for other tags. */
  type: string;
  readOnly: boolean;
  disabled: boolean;
  multiple: boolean;
  editable: boolean;
}

/** What kind of form control an element is. */
export const controlKind = pageFunction<[Element], ControlKind>(`function (el) {
  const tag = el.tagName.toLowerCase();
  return {
    tag,
    type: tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : '',
    readOnly: !!el.readOnly,
    disabled: !!el.disabled,
    multiple: !!el.multiple,
    editable: !!el.isContentEditable,
  };
}`);

export interface SelectState {
  multiple: boolean;
  options: Array<{ value: string; label: string; selected: boolean; disabled: boolean }>;
}

/** The options of a <select>, or null for any other element. */
export const selectOptions = pageFunction<[Element], SelectState | null>(`function (el) {
  if (el.tagName !== 'SELECT') return null;
  const options = Array.from(el.options).map((o) => ({
    value: o.value,
    label: o.label || o.text,
    selected: o.selected,
    disabled: o.disabled,
  }));
  return { multiple: el.multiple, options };
}`);

/**
 * Expression: a structural summary of the document (open shadow roots included): title, headings,
 * forms with their fields (password values masked), and the start of the visible text.
 */
export const CONTEXT_SUMMARY = `(() => {
  const clean = (s, n) => {
    const t = (s || '').replace(/\\s+/g, ' ').trim();
    return t.length > n ? t.slice(0, n - 1) + '…' : t;
  };
  const all = (root, sel, out) => {
    root.querySelectorAll(sel).forEach((e) => out.push(e));
    root.querySelectorAll('*').forEach((e) => { if (e.shadowRoot) all(e.shadowRoot, sel, out); });
    return out;
  };
  const labelOf = (el) => {
    const aria = el.getAttribute('aria-label');
    if (aria) return aria;
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const root = el.getRootNode();
      const named = by.split(/\\s+/).map((id) => root.getElementById && root.getElementById(id)).filter(Boolean);
      const t = named.map((e) => e.textContent).join(' ');
      if (t.trim()) return t;
    }
    if (el.labels && el.labels.length) return Array.from(el.labels).map((l) => l.textContent).join(' ');
    return el.getAttribute('placeholder') || el.getAttribute('title') || '';
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0 || el.type === 'hidden';
  };
  const fieldOf = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : tag;
    const f = { kind: type, label: clean(labelOf(el), 80), name: el.getAttribute('name') || el.id || '' };
    if (type === 'checkbox' || type === 'radio') f.checked = el.checked;
    else if (tag === 'select') f.value = Array.from(el.selectedOptions).map((o) => o.label || o.text).join(', ');
    else if (type === 'password') f.value = el.value ? '(set)' : '';
    else if (type !== 'file' && type !== 'hidden') f.value = clean(el.value, 80);
    if (el.required) f.required = true;
    if (el.disabled) f.disabled = true;
    return f;
  };
  const controls = 'input:not([type=hidden]),select,textarea';
  const forms = all(document, 'form', []).slice(0, 10).map((form) => ({
    name: clean(form.getAttribute('aria-label') || form.getAttribute('name') || form.id || '', 60),
    action: form.getAttribute('action') || '',
    method: (form.getAttribute('method') || 'get').toLowerCase(),
    fields: Array.from(form.querySelectorAll(controls)).filter(visible).slice(0, 40).map(fieldOf),
  }));
  const loose = all(document, controls, [])
    .filter((el) => !el.form && !el.closest('form') && visible(el))
    .slice(0, 40)
    .map(fieldOf);
  const headings = all(document, 'h1,h2,h3,[role=heading]', [])
    .filter(visible)
    .slice(0, 30)
    .map((h) => ({
      level: Number(h.getAttribute('aria-level') || h.tagName.slice(1)) || 2,
      text: clean(h.textContent, 120),
    }));
  const text = clean(document.body ? document.body.innerText : '', 600);
  return { title: document.title, url: location.href, headings, forms, fieldsOutsideForms: loose, text };
})()`;

/** Expression: the document's HTML with open shadow roots serialized in place (Chrome's getHTML), else outerHTML. */
export const DOCUMENT_HTML = `(() => {
  const roots = [];
  const walk = (root) =>
    root.querySelectorAll('*').forEach((e) => {
      if (e.shadowRoot) {
        roots.push(e.shadowRoot);
        walk(e.shadowRoot);
      }
    });
  walk(document);
  const html = document.documentElement;
  return typeof html.getHTML === 'function' ? html.getHTML({ shadowRoots: roots }) : html.outerHTML;
})()`;
