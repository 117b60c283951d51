/**
 * Approval rules a person keeps, as coding agents have them: allow, ask or deny the calls of the
 * tools whose id matches a pattern and whose arguments match patterns, e.g.
 *
 *   write_file path=notes/**            allow
 *   app_uninstall packageName=com.android.*   deny
 *   shell_execute command="rm *"        ask
 *
 * Patterns are globs: `**` matches anything, `?` one character; `*` matches anything except `/`
 * when the pattern has a `/` (a path: `notes/*` is the files in notes/, `notes/**` everything
 * under it), and anything at all when it has none (`rm *`, `com.android.*`). A field's value is
 * matched as text (numbers and booleans as they print); a field the call lacks matches nothing.
 * A value that a path reading changes (`notes/../secrets.txt`) is matched both as written and
 * normalised: a deny or ask rule applies when either matches, an allow rule only when both do,
 * so `..` can never widen an allow nor slip past a deny. When several rules match, deny beats
 * ask beats allow.
 */
import { posix } from 'node:path';

export type RuleEffect = 'allow' | 'ask' | 'deny';

export interface ArgumentPattern {
  field: string;
  pattern: string;
}

export interface ApprovalRule {
  id: number;
  effect: RuleEffect;
  /** A glob over tool ids. */
  tool: string;
  /** Every one must match. */
  args: ArgumentPattern[];
}

export type ParsedRule = { ok: true; tool: string; args: ArgumentPattern[] } | { ok: false; error: string };

const TOOL_PATTERN = /^[A-Za-z0-9_.*?-]{1,128}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const RANK: Record<RuleEffect, number> = { deny: 3, ask: 2, allow: 1 };

/** Splits on spaces, keeping "quoted" or 'quoted' runs together (the quotes are dropped). */
function words(text: string): string[] | undefined {
  const out: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (quote !== undefined) return undefined;
  if (started) out.push(current);
  return out;
}

/** `write_file path=notes/**` → the tool pattern and the argument patterns, or what is wrong. */
export function parseRule(text: string): ParsedRule {
  const parts = words(text.trim());
  if (parts === undefined) return { ok: false, error: 'a quote is not closed' };
  const [tool, ...rest] = parts;
  if (tool === undefined || tool === '')
    return { ok: false, error: 'give a tool id or a pattern, e.g. write_file or mcp.*' };
  if (!TOOL_PATTERN.test(tool))
    return { ok: false, error: `"${tool}" is not a tool id pattern (letters, digits, _ . - and the wildcards * ?)` };
  const args: ArgumentPattern[] = [];
  for (const part of rest) {
    const eq = part.indexOf('=');
    const field = eq > 0 ? part.slice(0, eq) : '';
    const pattern = eq > 0 ? part.slice(eq + 1) : '';
    if (!FIELD.test(field) || pattern === '')
      return { ok: false, error: `"${part}" is not field=pattern (e.g. path=notes/** or command="rm *")` };
    if (args.some((a) => a.field === field)) return { ok: false, error: `the field ${field} is named twice` };
    args.push({ field, pattern });
  }
  return { ok: true, tool, args };
}

/** The rule as a person writes it, quoting patterns that hold spaces or quotes. */
export function ruleText(rule: Pick<ApprovalRule, 'tool' | 'args'>): string {
  const quoted = (p: string) => (/[\s"']/.test(p) ? (p.includes('"') ? `'${p}'` : `"${p}"`) : p);
  return [rule.tool, ...rule.args.map((a) => `${a.field}=${quoted(a.pattern)}`)].join(' ');
}

const compiled = new Map<string, RegExp>();

export function globMatches(pattern: string, value: string): boolean {
  let re = compiled.get(pattern);
  if (re === undefined) {
    const star = pattern.includes('/') ? '[^/]*' : '[\\s\\S]*';
    const one = pattern.includes('/') ? '[^/]' : '[\\s\\S]';
    let source = '';
    for (let i = 0; i < pattern.length; i++) {
      const ch = pattern[i] as string;
      if (ch === '*' && pattern[i + 1] === '*') {
        source += '[\\s\\S]*';
        i++;
      } else if (ch === '*') source += star;
      else if (ch === '?') source += one;
      else source += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
    }
    re = new RegExp(`^${source}$`);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re.test(value);
}

function valueText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** The value as written, and as a path reading would take it when that differs. */
function readings(value: string): string[] {
  if (!value.includes('/') && !value.includes('\\')) return [value];
  const normal = posix.normalize(value.replaceAll('\\', '/')).replace(/^\.\//, '');
  return normal === value ? [value] : [value, normal];
}

function matches(rule: ApprovalRule, toolId: string, args: unknown): boolean {
  if (!globMatches(rule.tool, toolId)) return false;
  const fields = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  for (const { field, pattern } of rule.args) {
    const text = valueText(Object.hasOwn(fields, field) ? fields[field] : undefined);
    if (text === undefined) return false;
    const forms = readings(text);
    const hit =
      rule.effect === 'allow'
        ? forms.every((f) => globMatches(pattern, f))
        : forms.some((f) => globMatches(pattern, f));
    if (!hit) return false;
  }
  return true;
}

/** The rule that decides a call: of those that match, a deny, else an ask, else an allow. */
export function decidingRule(rules: readonly ApprovalRule[], toolId: string, args: unknown): ApprovalRule | undefined {
  let best: ApprovalRule | undefined;
  for (const rule of rules) {
    if ((best === undefined || RANK[rule.effect] > RANK[best.effect]) && matches(rule, toolId, args)) best = rule;
  }
  return best;
}

/** How the audit and the card name a rule: `#3 deny app_uninstall packageName=com.android.*`. */
export function ruleName(rule: ApprovalRule): string {
  return `#${rule.id} ${rule.effect} ${ruleText(rule)}`;
}
