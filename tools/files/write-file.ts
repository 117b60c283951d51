/** write_file: creates or replaces a file atomically, within a size limit. */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { AnchoredDir } from './anchored-dir';
import { type Location, locate } from './confined-open';
import { fsError, orFsError } from './fs-errors';
import { type FilesConfig, mutatingDeclaration } from './options';
import { replaceFile, writeAll } from './text-file';

function decode(content: string, encoding: 'utf8' | 'base64'): Buffer {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  const clean = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    throw new ToolCallError('INVALID_ARGUMENT', '"content" is not valid base64.', { data: { fields: ['content'] } });
  }
  return Buffer.from(clean, 'base64');
}

/**
 * Opens the folder a file is to be written in, walking from the root and creating missing
 * folders when asked (each inside the one just checked); what is missing or in the way is a clear error.
 */
export async function openParent(location: Location, shown: string, createDirs: boolean): Promise<AnchoredDir> {
  try {
    return await AnchoredDir.walk(location.realRoot, location.dir, shown, createDirs);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOTDIR')
      throw new ToolCallError('INVALID_ARGUMENT', `The parent of "${location.rel}" is a file, not a directory.`, {
        hint: 'Check the path with list_files.',
        data: { fields: ['path'] },
      });
    if (code === 'ENOENT')
      throw new ToolCallError('NOT_FOUND', `The directory for "${location.rel}" does not exist.`, {
        hint: 'Set createDirs: true to create missing directories, or check the path with list_files.',
      });
    throw fsError(e, location.rel, 'create the directories for');
  }
}

export function writeFileTool(config: FilesConfig) {
  return defineTool({
    id: 'write_file',
    title: 'Write a file',
    description:
      `Writes a whole workspace file, at most ${config.maxWriteBytes} ` +
      'bytes, atomically. To change part of a file use edit_file.',
    input: z.object({
      path: WORKSPACE_PATH,
      content: z.string(),
      encoding: z.enum(['utf8', 'base64']).default('utf8').describe('base64 for binary content.'),
      overwrite: z.boolean().default(true).describe('false: an existing file is an error.'),
      createDirs: z.boolean().default(false).describe('Create missing parent folders.'),
    }),
    ...mutatingDeclaration('MEDIUM', true),
    // Before a person is asked: without createDirs, is the folder there? Opened read-only, then closed.
    precheck: async (args) => {
      if (args.createDirs) return;
      const location = await locate(config, args.path, true);
      if (location.isRoot) return;
      await (await openParent(location, args.path, false)).close();
    },
    run: async (args) => {
      const location = await locate(config, args.path, true);
      const { rel } = location;
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
      const existing = location.isRoot ? null : await lstat(join(location.dir, location.name)).catch(() => null);
      if (location.isRoot || existing?.isDirectory())
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
      const dir = await openParent(location, args.path, args.createDirs);
      try {
        await orFsError(replaceFile(config, dir, location.name, writeAll(data), { rel }), rel, 'write');
      } finally {
        await dir.close();
      }
      return jsonSuccess({ path: rel, bytes: data.length, created: !existing });
    },
  });
}
