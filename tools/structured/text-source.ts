/**
 * Input text for tools that accept either inline text or a workspace file (csv_query,
 * xml_extract). Files go through the files family's guard, so nothing outside the workspace is read.
 */
import { readFile, stat } from 'node:fs/promises';
import { ToolCallError } from '../core/result';
import { resolveInsideRoot } from '../files/path-guard';

export const MAX_SOURCE_BYTES = 5 * 1024 * 1024;

export interface TextSource {
  /** Inline content, under the argument name `textField`. */
  text: string | undefined;
  /** A workspace-relative file path, under the argument name `fileField`. */
  file: string | undefined;
  textField: string;
  fileField: string;
}

export async function readTextSource(
  workspaceRoot: string,
  src: TextSource,
  maxBytes = MAX_SOURCE_BYTES,
): Promise<string> {
  if ((src.text === undefined) === (src.file === undefined)) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `Give exactly one of "${src.textField}" (inline content) or "${src.fileField}" (a workspace file).`,
      {
        data: { fields: [src.textField, src.fileField] },
      },
    );
  }
  if (src.text !== undefined) {
    if (Buffer.byteLength(src.text) > maxBytes) throw tooLarge(src.textField, maxBytes);
    return src.text;
  }
  const name = src.file ?? '';
  const file = await resolveInsideRoot(workspaceRoot, name);
  const info = await stat(file).catch(() => null);
  if (!info)
    throw new ToolCallError('NOT_FOUND', `No file at "${name}".`, {
      hint: 'Check the path with list_files or glob_files, then retry.',
    });
  if (!info.isFile())
    throw new ToolCallError('INVALID_ARGUMENT', `"${name}" is not a regular file.`, {
      data: { fields: [src.fileField] },
    });
  if (info.size > maxBytes) throw tooLarge(src.fileField, maxBytes);
  return readFile(file, 'utf8');
}

function tooLarge(field: string, maxBytes: number): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `The input named by "${field}" is larger than ${maxBytes} bytes.`, {
    hint: 'Use a smaller input, or split it and call the tool on each part.',
    data: { fields: [field] },
  });
}
