/**
 * github_read_file: a file of a repository, decoded. Text comes back as text, cut at maxChars;
 * a binary file (NUL bytes, or not UTF-8) is described (size, sha, download URL), never dumped;
 * a folder is listed. The sha is what github_write_file needs to update the file.
 */
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import { type ClientSource, READ_DECLARATION, filePath, owner, ref, repo } from '../common';
import { githubFailure } from '../errors';

const MAX_CHARS = 1_000_000;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

interface ContentEntry {
  type: string;
  name: string;
  path: string;
  sha: string;
  size: number;
  content?: string;
  encoding?: string;
  target?: string;
  submodule_git_url?: string;
  download_url: string | null;
  html_url: string | null;
}

/** Text when the bytes are UTF-8 without NUL, else undefined (a binary file). */
export function asText(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function githubReadFileTool(client: ClientSource) {
  return defineTool({
    id: 'github_read_file',
    title: 'Read a GitHub file',
    description:
      'Reads a file of a GitHub repository (a folder is listed) ' +
      'with its sha, which github_write_file needs to update it.',
    input: z.object({
      owner,
      repo,
      path: filePath,
      ref,
      maxChars: z.number().int().min(1).max(MAX_CHARS).default(100_000),
    }),
    ...READ_DECLARATION,
    async run(args, ctx) {
      const what = `${args.path} in ${args.owner}/${args.repo}${args.ref ? `@${args.ref}` : ''}`;
      let data: ContentEntry | ContentEntry[];
      try {
        ({ data } = (await client().rest.repos.getContent({
          owner: args.owner,
          repo: args.repo,
          path: args.path,
          ...(args.ref ? { ref: args.ref } : {}),
          request: { signal: ctx.signal },
        })) as { data: ContentEntry | ContentEntry[] });
      } catch (e) {
        throw githubFailure(e, { what: `file ${what}` });
      }
      if (Array.isArray(data)) {
        return jsonSuccess({
          type: 'dir',
          path: args.path,
          entries: data.map((d) => ({ name: d.name, path: d.path, type: d.type, size: d.size, sha: d.sha })),
          hint: 'This is a folder; read one of its files by its path.',
        });
      }
      const base = { path: data.path, sha: data.sha, size: data.size, htmlUrl: data.html_url };
      if (data.type === 'symlink') return jsonSuccess({ type: 'symlink', ...base, target: data.target ?? null });
      if (data.type === 'submodule')
        return jsonSuccess({ type: 'submodule', ...base, gitUrl: data.submodule_git_url ?? null });
      if (data.encoding !== 'base64' || data.content === undefined) {
        return jsonSuccess({
          type: 'file',
          ...base,
          tooLarge: true,
          downloadUrl: data.download_url,
          hint:
            "GitHub's contents API returns the text of files up to 1 MB; fetch this one from downloadUrl with " +
            'web_fetch or download_file.',
        });
      }
      const bytes = Buffer.from(data.content, 'base64');
      const text = asText(bytes);
      if (text === undefined) {
        return jsonSuccess({
          type: 'file',
          ...base,
          binary: true,
          downloadUrl: data.download_url,
          hint: 'A binary file: its bytes are not shown. Download it with download_file from downloadUrl if needed.',
        });
      }
      const truncated = text.length > args.maxChars;
      return jsonSuccess({
        type: 'file',
        ...base,
        encoding: 'utf-8',
        truncated,
        ...(truncated ? { totalChars: text.length } : {}),
        content: truncated ? text.slice(0, args.maxChars) : text,
      });
    },
  });
}
