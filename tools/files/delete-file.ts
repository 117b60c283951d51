/**
 * delete_file: removes a file, a symbolic link (never what it points to), or, with recursive:true,
 * a directory. Destructive and HIGH risk, so the approval gate asks a person first. What is
 * deleted is looked up in its anchored folder, so a folder swapped for a link while the call runs
 * cannot turn the deletion onto a file outside; the host's secrets are refused.
 */
import { lstat, unlink } from 'node:fs/promises';
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { AnchoredDir } from './anchored-dir';
import { locate, refuseSecret } from './confined-open';
import { deleteTree } from './file-tree';
import { orFsError } from './fs-errors';
import { type FilesConfig, mutatingDeclaration } from './options';

export function deleteFileTool(config: FilesConfig) {
  return defineTool({
    id: 'delete_file',
    title: 'Delete a file',
    description: 'Deletes a file or link of the workspace, or with recursive a folder; a person approves it.',
    input: z.object({
      path: WORKSPACE_PATH,
      recursive: z.boolean().default(false),
    }),
    ...mutatingDeclaration('HIGH', true),
    // Before a person is asked: is there anything to delete? Looked up the way run does, read-only.
    precheck: async (args) => {
      const location = await locate(config, args.path, false);
      if (location.isRoot) return;
      const dir = await orFsError(AnchoredDir.walk(location.realRoot, location.dir, args.path), location.rel, 'delete');
      try {
        await orFsError(lstat(dir.child(location.name)), location.rel, 'delete');
      } finally {
        await dir.close();
      }
    },
    run: async (args) => {
      const location = await locate(config, args.path, false);
      const { rel, name } = location;
      if (location.isRoot) {
        throw new ToolCallError('PERMISSION_DENIED', 'The workspace root itself cannot be deleted.', {
          hint: 'Delete the files or folders inside it one by one.',
        });
      }
      const dir = await orFsError(AnchoredDir.walk(location.realRoot, location.dir, args.path), rel, 'delete');
      try {
        const info = await orFsError(lstat(dir.child(name)), rel, 'delete');
        refuseSecret(config, dir, name, info, args.path);
        const type = info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'directory' : 'file';
        if (type === 'directory' && !args.recursive) {
          throw new ToolCallError('INVALID_ARGUMENT', `"${rel}" is a directory.`, {
            hint: 'Set recursive: true to delete it with everything inside, or delete single files instead.',
            data: { fields: ['recursive'] },
          });
        }
        // A file with several hard links may be deleted: that removes this name, not the file.
        await orFsError(type === 'directory' ? deleteTree(dir, name) : unlink(dir.child(name)), rel, 'delete');
        return jsonSuccess({ path: rel, type, deleted: true });
      } finally {
        await dir.close();
      }
    },
  });
}
