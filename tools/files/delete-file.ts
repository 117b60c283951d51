/**
 * delete_file: removes a file, a symbolic link (never what it points to), or, with recursive:true,
 * a directory. Destructive and HIGH risk, so the approval gate asks a person first.
 */
import { lstat, rm } from 'node:fs/promises';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { orFsError } from './fs-errors';
import { type FilesConfig, guard, mutatingDeclaration } from './options';

export function deleteFileTool(config: FilesConfig) {
  return defineTool({
    id: 'delete_file',
    title: 'Delete a file',
    description:
      'Deletes a file or symbolic link in the workspace; a directory only with recursive: true (then everything in it is deleted). Cannot be undone; a person may be asked to approve.',
    input: z.object({
      path: z.string().describe('Workspace-relative path of the file or directory to delete.'),
      recursive: z.boolean().default(false).describe('Required to delete a directory and all of its contents.'),
    }),
    ...mutatingDeclaration('HIGH', true),
    run: async (args) => {
      const { abs, rel } = await guard(config, args.path);
      if (abs === (await guard(config, '.')).abs) {
        throw new ToolCallError('PERMISSION_DENIED', 'The workspace root itself cannot be deleted.', {
          hint: 'Delete the files or folders inside it one by one.',
        });
      }
      const info = await orFsError(lstat(abs), rel, 'delete');
      const type = info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'directory' : 'file';
      if (type === 'directory' && !args.recursive) {
        throw new ToolCallError('INVALID_ARGUMENT', `"${rel}" is a directory.`, {
          hint: 'Set recursive: true to delete it with everything inside, or delete single files instead.',
          data: { fields: ['recursive'] },
        });
      }
      await orFsError(rm(abs, { recursive: type === 'directory', force: false }), rel, 'delete');
      return jsonSuccess({ path: rel, type, deleted: true });
    },
  });
}
