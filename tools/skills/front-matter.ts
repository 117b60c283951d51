/**
 * SKILL.md: YAML front matter between `---` lines, then Markdown instructions. The front matter
 * is parsed with the YAML 1.2 core schema (no custom tags, few aliases, unique keys) and checked
 * field by field against the Agent Skills rules, every problem reported at once with its field, so
 * a skill's author or a model can fix the whole file in one pass.
 *
 * Besides the specification's fields (name, description, license, compatibility, metadata,
 * allowed-tools) Toolgate reads `tools`: the tools the skill brings (skill-tool-declaration.ts).
 */
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { formatPath } from '../core/schema';
import type { FieldIssue } from '../orchestration';
import { skillNameProblem } from './skill-name';
import { type SkillToolDeclaration, skillToolDeclarationSchema } from './skill-tool-declaration';

export interface SkillFrontMatter {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  'allowed-tools'?: string;
  tools?: SkillToolDeclaration[];
}

export interface ParsedSkillMd {
  frontMatter: SkillFrontMatter;
  /** The Markdown after the front matter: the instructions. */
  body: string;
}

export type SkillMdParse =
  | { ok: true; value: ParsedSkillMd }
  /** `tools`: the declared tools when they parse although other fields do not, so they can be checked too. */
  | { ok: false; issues: FieldIssue[]; tools?: SkillToolDeclaration[] };

const frontMatterSchema = z.object({
  name: z.string({ error: 'is required: the skill name (lowercase letters, digits, hyphens)' }),
  description: z
    .string({ error: 'is required: what the skill does and when to use it' })
    .trim()
    .min(1, 'is empty; say what the skill does and when to use it')
    .max(1024, 'is longer than 1024 characters'),
  license: z.string().max(500, 'is longer than 500 characters').optional(),
  compatibility: z.string().max(500, 'is longer than 500 characters').optional(),
  metadata: z
    .record(z.string(), z.string({ error: 'values must be strings (quote numbers, e.g. version: "1.0")' }))
    .optional(),
  'allowed-tools': z.string().max(2000).optional(),
  tools: z.array(skillToolDeclarationSchema).optional(),
});

/** `---` alone on a line, at the start of the file and again after the front matter. */
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

export function parseSkillMd(text: string): SkillMdParse {
  const opening = OPENING.exec(text);
  if (!opening) {
    return fail('front matter', 'SKILL.md must start with a line "---", then YAML front matter, then "---"');
  }
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return fail('front matter', 'the front matter is not closed: add a line "---" after it');
  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  const doc = parseDocument(yamlText, { schema: 'core', uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    return { ok: false, issues: doc.errors.map((e) => ({ field: 'front matter', message: oneLine(e.message) })) };
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 20 });
  } catch (e) {
    return fail('front matter', oneLine((e as Error).message));
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail('front matter', 'must be a YAML mapping of fields (name: …, description: …)');
  }
  const parsed = frontMatterSchema.safeParse(raw);
  const issues: FieldIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ field: formatPath(i.path), message: i.message }));
  const name = (raw as { name?: unknown }).name;
  if (typeof name === 'string') {
    const problem = skillNameProblem(name);
    if (problem) issues.unshift({ field: 'name', message: `'${name}' ${problem}` });
  }
  if (!parsed.success || issues.length > 0) {
    const tools = z.array(skillToolDeclarationSchema).safeParse((raw as { tools?: unknown }).tools ?? []);
    return { ok: false, issues, ...(tools.success ? { tools: tools.data as SkillToolDeclaration[] } : {}) };
  }
  return { ok: true, value: { frontMatter: parsed.data as SkillFrontMatter, body } };
}

function fail(field: string, message: string): SkillMdParse {
  return { ok: false, issues: [{ field, message }] };
}

function oneLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}
