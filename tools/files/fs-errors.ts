/** Operating-system errors as model-readable tool errors naming the workspace path (tool errors pass unchanged). */
import { ToolCallError, isToolCallError } from '../core/result';

export function fsError(e: unknown, rel: string, action: string): ToolCallError {
  if (isToolCallError(e)) return e;
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  const detail = e instanceof Error ? e.message : String(e);
  switch (code) {
    case 'ENOENT':
      return new ToolCallError('NOT_FOUND', `Cannot ${action} "${rel}": it does not exist.`, {
        hint: 'Check the path with list_files or glob_files, then retry.',
      });
    case 'EISDIR':
      return new ToolCallError('INVALID_ARGUMENT', `Cannot ${action} "${rel}": it is a directory.`, {
        hint: 'Name a file, or use list_files for directories.',
      });
    case 'ENOTDIR':
      return new ToolCallError(
        'INVALID_ARGUMENT',
        `Cannot ${action} "${rel}": a part of the path is a file, not a directory.`,
        { hint: 'Check the path with list_files.' },
      );
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new ToolCallError('INVALID_ARGUMENT', `Cannot ${action} "${rel}": something already exists there.`, {
        hint: 'Choose another path, or delete the existing one first.',
      });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ToolCallError(
        'PERMISSION_DENIED',
        `Cannot ${action} "${rel}": the operating system refused (${String(code)}).`,
      );
    case 'ENOSPC':
    case 'EDQUOT':
      return new ToolCallError('EXECUTION_FAILED', `Cannot ${action} "${rel}": the disk is full.`, {
        hint: 'Tell the user the disk is full; do not retry.',
      });
    default:
      return new ToolCallError('EXECUTION_FAILED', `Cannot ${action} "${rel}": ${detail}`);
  }
}

export async function orFsError<T>(promise: Promise<T>, rel: string, action: string): Promise<T> {
  try {
    return await promise;
  } catch (e) {
    throw fsError(e, rel, action);
  }
}
