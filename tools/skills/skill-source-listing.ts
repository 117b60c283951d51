/**
 * The skills the user's configured sources offer, for skill_search: a workspace folder whose
 * sub-folders (and archives) are skills, and an https index, a JSON document
 * `{ "skills": [{ "name", "description", "url" }] }` whose urls are archives skill_install takes.
 * A source that fails is reported beside the results, never a failed search.
 */
import { readdir } from 'node:fs/promises';
import { z } from 'zod';
import { type FilesOptions, openWorkspaceFile, resolveInsideRoot } from '../files';
import { type FetchLike, callSignal, fetchWithRedirects, readBodyCapped, statusFailure } from '../network/http-fetch';
import { parseSkillMd } from './front-matter';
import { SKILL_LIMITS, SKILL_MD } from './limits';
import { archiveKindOf, httpsOnly, readArchive } from './skill-sources';
import { skillMdOf } from './skill-validation';

export interface SkillSourceConfig {
  files: FilesOptions;
  fetchImpl: FetchLike;
  /** Workspace folder of skills (the skillSourceFolder setting). */
  folder(): string | undefined;
  /** https index of skills (the skillIndexUrl setting). */
  indexUrl(): string | undefined;
}

export interface SourceSkill {
  name: string;
  description: string;
  body: string;
  where: 'folder' | 'index';
  /** What skill_install takes to install it. */
  source: string;
}

const MAX_LISTED = 200;
const MAX_INDEX_BYTES = 1024 * 1024;

const indexSchema = z.object({
  skills: z
    .array(z.object({ name: z.string().max(64), description: z.string().max(1024), url: z.string().url().max(2000) }))
    .max(1000),
});

export async function listSourceSkills(
  config: SkillSourceConfig,
  signal: AbortSignal,
): Promise<{ skills: SourceSkill[]; errors: Array<{ source: string; error: string }> }> {
  const skills: SourceSkill[] = [];
  const errors: Array<{ source: string; error: string }> = [];
  const folder = config.folder();
  if (folder) {
    try {
      skills.push(...(await folderSkills(config.files, folder)));
    } catch (e) {
      errors.push({ source: folder, error: (e as Error).message });
    }
  }
  const index = config.indexUrl();
  if (index) {
    try {
      skills.push(...(await indexSkills(config.fetchImpl, index, signal)));
    } catch (e) {
      errors.push({ source: index, error: (e as Error).message });
    }
  }
  return { skills, errors };
}

async function folderSkills(files: FilesOptions, folder: string): Promise<SourceSkill[]> {
  const abs = await resolveInsideRoot(files.workspaceRoot, folder);
  const entries = (await readdir(abs, { withFileTypes: true })).slice(0, MAX_LISTED);
  const found: SourceSkill[] = [];
  for (const entry of entries) {
    const source = `${folder.replace(/\/+$/, '')}/${entry.name}`;
    const text = entry.isDirectory()
      ? await readText(files, `${source}/${SKILL_MD}`)
      : entry.isFile() && archiveKindOf(entry.name)
        ? await archiveSkillMd(files, source, archiveKindOf(entry.name) ?? 'zip')
        : undefined;
    const parsed = text === undefined ? undefined : parseSkillMd(text);
    if (!parsed?.ok) continue;
    const { frontMatter, body } = parsed.value;
    found.push({ name: frontMatter.name, description: frontMatter.description, body, where: 'folder', source });
  }
  return found;
}

async function readText(files: FilesOptions, path: string): Promise<string | undefined> {
  try {
    const opened = await openWorkspaceFile(files, path);
    try {
      if (opened.stat.size > SKILL_LIMITS.skillMdBytes) return undefined;
      return (await opened.handle.readFile()).toString('utf8');
    } finally {
      await opened.handle.close();
    }
  } catch {
    return undefined;
  }
}

async function archiveSkillMd(files: FilesOptions, path: string, kind: 'zip' | 'tar.gz'): Promise<string | undefined> {
  try {
    const opened = await openWorkspaceFile(files, path);
    try {
      if (opened.stat.size > SKILL_LIMITS.archiveBytes) return undefined;
      const root = skillMdOf(await readArchive(kind, await opened.handle.readFile()));
      return root?.skillMd;
    } finally {
      await opened.handle.close();
    }
  } catch {
    return undefined;
  }
}

async function indexSkills(fetchImpl: FetchLike, raw: string, signal: AbortSignal): Promise<SourceSkill[]> {
  const url = new URL(raw);
  if (url.protocol !== 'https:') throw new Error('the skill index must be an https:// URL');
  const timer = callSignal(signal, 20_000);
  const { response, finalUrl } = await fetchWithRedirects(
    { url, method: 'GET', headers: { accept: 'application/json' } },
    { fetchImpl: httpsOnly(fetchImpl), signal: timer.signal },
  );
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw statusFailure(response, finalUrl);
  }
  const body = await readBodyCapped(response, MAX_INDEX_BYTES);
  if (body.truncated) throw new Error(`the index is larger than ${MAX_INDEX_BYTES} bytes`);
  const parsed = indexSchema.safeParse(JSON.parse(body.data.toString('utf8')));
  if (!parsed.success)
    throw new Error(`the index is not {"skills":[{"name","description","url"}]}: ${parsed.error.issues[0]?.message}`);
  return parsed.data.skills
    .filter((s) => s.url.startsWith('https://'))
    .map((s) => ({ name: s.name, description: s.description, body: '', where: 'index' as const, source: s.url }));
}
