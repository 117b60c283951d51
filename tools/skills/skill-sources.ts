/**
 * Where skill_install reads a skill from, into a bundle in memory (nothing is written here):
 *
 * - a folder of the workspace, walked without following links (a link, device or pipe in it is
 *   refused), each file opened through the files family's `openWorkspaceFile`, so the workspace's
 *   confinement, secret-file and hard-link rules hold exactly as for read_file;
 * - an archive of the workspace (.zip, .skill, .tar.gz, .tgz), opened the same way;
 * - an https URL of an archive, fetched through the network family's guarded fetch with private
 *   and loopback addresses refused, so a skill download never reaches this host or its network.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ToolCallError } from '../core/result';
import { type FilesOptions, openWorkspaceFile, resolveInsideRoot, workspaceRelative } from '../files';
import {
  type FetchLike,
  callSignal,
  fetchWithRedirects,
  networkFailure,
  readBodyCapped,
  statusFailure,
} from '../network/http-fetch';
import { redactUrl } from '../network/secrets';
import { readTarGz } from './archive-tar';
import { readCapped, readZip } from './archive-zip';
import { SKILL_LIMITS } from './limits';
import { SkillBundleBuilder, SkillBundleError, type SkillFile } from './skill-bundle';

export interface SkillSourceRead {
  files: SkillFile[];
  /** The folder the skill was in, whose name must be the skill's. */
  folderName?: string;
  /** What to record as where the skill came from. */
  source: string;
}

export interface SkillSourceOptions {
  files: FilesOptions;
  fetchImpl: FetchLike;
  signal: AbortSignal;
  downloadTimeoutMs?: number;
}

type ArchiveKind = 'zip' | 'tar.gz';

export function archiveKindOf(name: string): ArchiveKind | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip') || lower.endsWith('.skill')) return 'zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  return undefined;
}

/** By the first bytes, for downloads whose URL names no extension. */
function sniff(data: Buffer): ArchiveKind | undefined {
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return 'zip';
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) return 'tar.gz';
  return undefined;
}

export function readArchive(kind: ArchiveKind, data: Buffer): Promise<SkillFile[]> {
  return kind === 'zip' ? readZip(data) : readTarGz(data);
}

export async function readSkillSource(source: string, options: SkillSourceOptions): Promise<SkillSourceRead> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return readUrl(source, options);
  const abs = await resolveInsideRoot(options.files.workspaceRoot, source);
  const rel = await workspaceRelative(options.files.workspaceRoot, abs);
  const info = await stat(abs).catch(() => undefined);
  if (!info) {
    throw new ToolCallError('NOT_FOUND', `Nothing at "${rel}" in the workspace.`, {
      hint:
        'Give a workspace folder holding SKILL.md, or a .zip, ' +
        '.skill or .tar.gz archive; list_files shows what is there.',
      data: { fields: ['source'] },
    });
  }
  if (info.isDirectory())
    return { files: await readFolder(rel, options.files), folderName: basename(abs), source: rel };
  const kind = archiveKindOf(rel);
  if (!kind) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `"${rel}" is neither a folder nor a .zip, .skill, .tar.gz or .tgz archive.`,
      {
        hint: 'Point source at the skill folder (the one holding SKILL.md) or at an archive of it.',
        data: { fields: ['source'] },
      },
    );
  }
  const opened = await openWorkspaceFile(options.files, rel);
  try {
    if (opened.stat.size > SKILL_LIMITS.archiveBytes) throw tooBig(rel, opened.stat.size);
    const data = await opened.handle.readFile();
    return { files: await readArchive(kind, data), source: rel };
  } finally {
    await opened.handle.close();
  }
}

function tooBig(what: string, size: number): SkillBundleError {
  return new SkillBundleError(
    `${what} is ${size} bytes; archives of at most ${SKILL_LIMITS.archiveBytes} bytes are installed`,
  );
}

async function readFolder(rel: string, files: FilesOptions): Promise<SkillFile[]> {
  const builder = new SkillBundleBuilder();
  const root = await resolveInsideRoot(files.workspaceRoot, rel);
  await walk(root, '', builder, async (inner) => {
    const opened = await openWorkspaceFile(files, rel === '.' ? inner : `${rel}/${inner}`);
    try {
      builder.checkDeclaredSize(inner, opened.stat.size);
      return await readCapped(opened.handle.createReadStream({ autoClose: false }), builder.room(), inner);
    } finally {
      await opened.handle.close();
    }
  });
  return builder.build();
}

async function walk(
  dir: string,
  prefix: string,
  builder: SkillBundleBuilder,
  read: (inner: string) => Promise<Buffer>,
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    // A skill kept in a git checkout: the repository's own data is not part of the skill.
    if (prefix === '' && entry.name === '.git' && entry.isDirectory()) continue;
    const inner = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink())
      throw new SkillBundleError(`${inner} is a symbolic link; skills may hold only files and folders`, inner);
    if (entry.isDirectory()) {
      builder.addDirectory(`${inner}/`);
      await walk(join(dir, entry.name), inner, builder, read);
    } else if (entry.isFile()) builder.addFile(inner, await read(inner));
    else throw new SkillBundleError(`${inner} is not a regular file (a device, pipe or socket)`, inner);
  }
}

const DEFAULT_DOWNLOAD_TIMEOUT_MS = 60_000;

async function readUrl(raw: string, options: SkillSourceOptions): Promise<SkillSourceRead> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolCallError('INVALID_ARGUMENT', 'source is not a valid URL.', { data: { fields: ['source'] } });
  }
  if (url.protocol !== 'https:') {
    throw new ToolCallError('INVALID_ARGUMENT', `source uses ${url.protocol}; skills are downloaded over https only.`, {
      hint: 'Give an https:// URL of a .zip, .skill or .tar.gz archive, or a workspace path.',
      data: { fields: ['source'] },
    });
  }
  if (url.username || url.password) {
    throw new ToolCallError('INVALID_ARGUMENT', 'source carries a user name or password; give a URL without them.', {
      data: { fields: ['source'] },
    });
  }
  const timeoutMs = options.downloadTimeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS;
  const timer = callSignal(options.signal, timeoutMs);
  let data: Buffer;
  let finalUrl: URL;
  try {
    const fetched = await fetchWithRedirects(
      { url, method: 'GET', headers: { accept: 'application/zip, application/gzip, application/octet-stream' } },
      { fetchImpl: httpsOnly(options.fetchImpl), signal: timer.signal },
    );
    finalUrl = fetched.finalUrl;
    if (!fetched.response.ok) {
      await fetched.response.body?.cancel().catch(() => undefined);
      throw statusFailure(fetched.response, finalUrl);
    }
    const body = await readBodyCapped(fetched.response, SKILL_LIMITS.archiveBytes);
    if (body.truncated) throw tooBig(redactUrl(finalUrl), SKILL_LIMITS.archiveBytes + 1);
    data = body.data;
  } catch (e) {
    if (e instanceof SkillBundleError) throw e;
    throw networkFailure(e, { url, timeoutMs, cause: timer.cause() });
  }
  const kind = archiveKindOf(finalUrl.pathname) ?? sniff(data);
  if (!kind) {
    throw new SkillBundleError(`${redactUrl(finalUrl)} is neither a zip nor a gzip archive`);
  }
  return { files: await readArchive(kind, data), source: redactUrl(url) };
}

/** Every hop, redirects included, stays on https. */
export function httpsOnly(inner: FetchLike): FetchLike {
  return (input, init) => {
    const url = input instanceof URL ? input : new URL(input);
    if (url.protocol !== 'https:') {
      return Promise.reject(
        new ToolCallError(
          'PERMISSION_DENIED',
          `The download was redirected to ${url.protocol}; skills come over https only.`,
          {
            hint: 'Use a URL that serves the archive over https all the way.',
            data: { gate: 'skills' },
          },
        ),
      );
    }
    return inner(input, init);
  };
}
