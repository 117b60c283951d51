/**
 * A small XPath subset over the XmlElement tree. fast-xml-parser has no XPath, and full XPath
 * libraries need a DOM; the subset a model actually writes is small enough to evaluate here:
 *   /a/b   //b   a/b (no leading slash = anywhere)   *   @attr   @*   text()
 *   predicates: [2]  [last()]  [@id]  [@id='x']  [@id!='x']  [child]  [child='x']  [text()='x']
 */
import { ToolCallError } from '../core/result';
import { type XmlElement, childElements, textContent } from './xml-tree';

type Test = { kind: 'element'; name: string } | { kind: 'attribute'; name: string } | { kind: 'text' };
type Subject = { kind: 'attribute'; name: string } | { kind: 'child'; name: string } | { kind: 'text' };
type Predicate =
  | { kind: 'index'; n: number }
  | { kind: 'last' }
  | { kind: 'compare'; subject: Subject; op?: '=' | '!='; value?: string };
interface Step {
  descendant: boolean;
  test: Test;
  predicates: Predicate[];
}

export type XPathResult =
  | { kind: 'element'; nodes: XmlElement[] }
  | { kind: 'attribute'; values: Array<{ element: XmlElement; name: string; value: string }> }
  | { kind: 'text'; values: string[] };

const NAME = /^[A-Za-z_][\w.:-]*/;

function syntax(path: string, why: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `Unsupported XPath "${path}": ${why}.`, {
    hint:
      'Use the supported subset: /root/child, //name, *, @attr, text(), and predicates [2], [last()], [@a], ' +
      "[@a='v'], [child='v'], [text()='v'].",
    data: { fields: ['xpath'] },
  });
}

function parsePredicate(path: string, body: string): Predicate {
  const b = body.trim();
  if (/^\d+$/.test(b)) {
    const n = Number(b);
    if (n < 1) throw syntax(path, 'positions start at 1');
    return { kind: 'index', n };
  }
  if (b === 'last()') return { kind: 'last' };
  const m =
    /^(@[A-Za-z_][\w.:-]*|text\(\)|[A-Za-z_][\w.:-]*)\s*(?:(!=|=)\s*(?:'([^']*)'|"([^"]*)"|(-?\d+(?:\.\d+)?)))?$/.exec(
      b,
    );
  if (!m) throw syntax(path, `cannot read the predicate [${body}]`);
  const head = m[1] ?? '';
  const subject: Subject = head.startsWith('@')
    ? { kind: 'attribute', name: head.slice(1) }
    : head === 'text()'
      ? { kind: 'text' }
      : { kind: 'child', name: head };
  const op = m[2] as '=' | '!=' | undefined;
  if (op === undefined) {
    if (subject.kind === 'text') throw syntax(path, 'text() in a predicate needs a comparison');
    return { kind: 'compare', subject };
  }
  return { kind: 'compare', subject, op, value: m[3] ?? m[4] ?? m[5] ?? '' };
}

export function parseXPath(path: string): Step[] {
  const steps: Step[] = [];
  let rest = path.trim();
  let descendant = rest.startsWith('//') || !rest.startsWith('/');
  if (rest.startsWith('//')) rest = rest.slice(2);
  else if (rest.startsWith('/')) rest = rest.slice(1);
  while (rest.length > 0) {
    let test: Test;
    if (rest.startsWith('text()')) {
      test = { kind: 'text' };
      rest = rest.slice(6);
    } else if (rest.startsWith('@*')) {
      test = { kind: 'attribute', name: '*' };
      rest = rest.slice(2);
    } else if (rest.startsWith('@')) {
      const m = NAME.exec(rest.slice(1));
      if (!m) throw syntax(path, 'an attribute name must follow "@"');
      test = { kind: 'attribute', name: m[0] };
      rest = rest.slice(1 + m[0].length);
    } else if (rest.startsWith('*')) {
      test = { kind: 'element', name: '*' };
      rest = rest.slice(1);
    } else {
      const m = NAME.exec(rest);
      if (!m) throw syntax(path, `unexpected "${rest.slice(0, 20)}"`);
      test = { kind: 'element', name: m[0] };
      rest = rest.slice(m[0].length);
    }
    const predicates: Predicate[] = [];
    while (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      if (close < 0) throw syntax(path, 'a "[" is not closed');
      predicates.push(parsePredicate(path, rest.slice(1, close)));
      rest = rest.slice(close + 1);
    }
    if (test.kind !== 'element' && predicates.length > 0) throw syntax(path, 'predicates apply to elements only');
    steps.push({ descendant, test, predicates });
    if (rest.length === 0) break;
    if (test.kind !== 'element') throw syntax(path, '@attr and text() may only be the last step');
    if (rest.startsWith('//')) {
      descendant = true;
      rest = rest.slice(2);
    } else if (rest.startsWith('/')) {
      descendant = false;
      rest = rest.slice(1);
    } else {
      throw syntax(path, `expected "/" before "${rest.slice(0, 20)}"`);
    }
    if (rest.length === 0) throw syntax(path, 'the path ends with "/"');
  }
  if (steps.length === 0) throw syntax(path, 'the path is empty');
  if (steps.length > 32) throw syntax(path, 'more than 32 steps');
  return steps;
}

/** Document order, iteratively: deeply nested input must not overflow the stack. */
function selfAndDescendants(node: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlElement[] = [node];
  while (stack.length > 0) {
    const next = stack.pop() as XmlElement;
    out.push(next);
    const children = childElements(next);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as XmlElement);
  }
  return out;
}

function matches(node: XmlElement, p: Extract<Predicate, { kind: 'compare' }>): boolean {
  let candidates: string[];
  if (p.subject.kind === 'attribute') {
    const v = node.attributes[p.subject.name];
    candidates = v === undefined ? [] : [v];
  } else if (p.subject.kind === 'text') {
    candidates = [textContent(node).trim()];
  } else {
    const name = p.subject.name;
    candidates = childElements(node)
      .filter((c) => c.name === name)
      .map((c) => textContent(c).trim());
  }
  if (p.op === undefined) return candidates.length > 0;
  if (p.op === '=') return candidates.some((c) => c === p.value);
  return candidates.some((c) => c !== p.value);
}

function applyPredicates(nodes: XmlElement[], predicates: Predicate[]): XmlElement[] {
  let current = nodes;
  for (const p of predicates) {
    if (p.kind === 'index') current = current.slice(p.n - 1, p.n);
    else if (p.kind === 'last') current = current.slice(-1);
    else current = current.filter((n) => matches(n, p));
  }
  return current;
}

/** Evaluates the steps from the document node; results in document order, without duplicates. */
export function evaluateXPath(document: XmlElement, path: string): XPathResult {
  const steps = parseXPath(path);
  let context: XmlElement[] = [document];
  for (const step of steps) {
    const parents = step.descendant ? [...new Set(context.flatMap(selfAndDescendants))] : context;
    if (step.test.kind === 'attribute') {
      const name = step.test.name;
      const values = parents.flatMap((element) =>
        Object.entries(element.attributes)
          .filter(([n]) => name === '*' || n === name)
          .map(([n, value]) => ({ element, name: n, value })),
      );
      return { kind: 'attribute', values };
    }
    if (step.test.kind === 'text') {
      return {
        kind: 'text',
        values: parents.flatMap((e) => e.children.flatMap((c) => (c.kind === 'text' ? [c.text] : []))),
      };
    }
    const name = step.test.name;
    const next: XmlElement[] = [];
    for (const parent of parents) {
      const children = childElements(parent).filter((c) => name === '*' || c.name === name);
      next.push(...applyPredicates(children, step.predicates));
    }
    context = [...new Set(next)];
  }
  return { kind: 'element', nodes: context };
}
