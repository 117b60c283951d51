/**
 * The files family: eight tools confined to one workspace folder chosen by the host. The path
 * guard is exported for other families that take paths from a model (browser upload, app install).
 */
import type { Tool } from '../core/tool';
import { defineToolset } from '../core/toolset';
import { copyMoveFileTool } from './copy-move-file';
import { deleteFileTool } from './delete-file';
import { editFileTool } from './edit-file';
import { globFilesTool } from './glob-files';
import { listFilesTool } from './list-files';
import { type OpenedFile, openForReading } from './confined-open';
import { type FilesOptions, resolveFilesConfig } from './options';
import { readFileTool } from './read-file';
import { searchFilesTool } from './search-files';
import { writeFileTool } from './write-file';

export type { FilesOptions } from './options';
export { isInside, pathDenied, resolveInsideRoot, workspaceRelative, type PathRule } from './path-guard';
export type { FileId, SecretFiles, SecretQuery } from './secret-files';
export type { OpenedFile } from './confined-open';

/**
 * Opens a workspace file for reading exactly as read_file does (no link followed, the descriptor
 * checked against the path, secrets and hard-linked files refused), for other families that read
 * a file a model names. The caller reads through `handle` and closes it.
 */
export function openWorkspaceFile(opts: FilesOptions, userPath: string, action = 'read'): Promise<OpenedFile> {
  return openForReading(resolveFilesConfig(opts), userPath, action);
}

export const FILES_TOOLSET = defineToolset(
  'files',
  'Read, write, edit, list, search, copy and delete files in the workspace folder.',
);

export function filesTools(opts: FilesOptions): Tool[] {
  const config = resolveFilesConfig(opts);
  return [
    readFileTool(config),
    writeFileTool(config),
    editFileTool(config),
    listFilesTool(config),
    globFilesTool(config),
    searchFilesTool(config),
    copyMoveFileTool(config),
    deleteFileTool(config),
  ] as Tool[];
}
