/** write_file: creates or replaces a file atomically, within a size limit. */
import { lstat, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { orFsError } from './fs-errors';
import { type FilesConfig, guard, mutatingDeclaration } from './options';
import { atomicWrite } from './text-file';

function decode(content: string, encoding: 'utf8' | 'base64'): Buffer {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  const clean = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    throw new ToolCallError('INVALID_ARGUMENT', '"content" is not valid base64.', { data: { fields: ['content'] } });
  }
  return Buffer.from(clean, 'base64');
}

/** Makes sure the parent directory exists, creating it when asked. */
export async function ensureParent(abs: string, rel: string, createDirs: boolean): Promise<void> {
  const parent = dirname(abs);
  const info = await stat(parent).catch(() => null);
  if (info?.isDirectory()) return;
  if (info)
    throw new ToolCallError('INVALID_ARGUMENT', `The parent of "${rel}" is a file, not a directory.`, {
      data: { fields: ['path'] },
    });
  if (!createDirs) {
    throw new ToolCallError('NOT_FOUND', `The directory for "${rel}" does not exist.`, {
      hint: 'Set createDirs: true to create missing directories, or check the path with list_files.',
    });
  }
  await orFsError(mkdir(parent, { recursive: true }), rel, 'create the directories for');
}

export function writeFileTool(config: FilesConfig) {
  return defineTool({
    id: 'write_file',
    title: 'Write a file',
    description: `Creates or replaces a file in the workspace with the given content (UTF-8 text, or base64 for binary data). The write is atomic: readers see the old or the new file, never half of one. At most ${config.maxWriteBytes} bytes. To change part of a file, prefer edit_file.`,
    input: z.object({
      path: z.string().describe('Workspace-relative path of the file, e.g. "notes/todo.md".'),
      content: z.string().describe('The full new content of the file.'),
      encoding: z
        .enum(['utf8', 'base64'])
        .default('utf8')
        .describe('How "content" is encoded: utf8 text (default) or base64 bytes.'),
      overwrite: z
        .boolean()
        .default(true)
        .describe('Replace an existing file (default true); when false, an existing file is an error.'),
      createDirs: z.boolean().default(false).describe('Create missing parent directories.'),
    }),
    ...mutatingDeclaration('MEDIUM', true),
    run: async (args) => {
      const { abs, rel } = await guard(config, args.path);
      const data = decode(args.content, args.encoding);
      if (data.length > config.maxWriteBytes) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `The content is ${data.length} bytes; the limit is ${config.maxWriteBytes}.`,
          {
            hint: 'Write a smaller file, or split the content into several files.',
            data: { fields: ['content'] },
          },
        );
      }
      const existing = await lstat(abs).catch(() => null);
      const target = existing?.isSymbolicLink() ? await stat(abs).catch(() => null) : existing;
      if (target?.isDirectory())
        throw new ToolCallError('INVALID_ARGUMENT', `"${rel}" is a directory.`, {
          hint: 'Name a file path inside it instead.',
          data: { fields: ['path'] },
        });
      if (existing && !args.overwrite) {
        throw new ToolCallError('INVALID_ARGUMENT', `"${rel}" already exists.`, {
          hint: 'Set overwrite: true to replace it, or choose another path.',
          data: { fields: ['path'] },
        });
      }
      await ensureParent(abs, rel, args.createDirs);
      await orFsError(atomicWrite(abs, data), rel, 'write');
      return jsonSuccess({ path: rel, bytes: data.length, created: !existing });
    },
  });
}
