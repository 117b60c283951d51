/** read_file: a text file's lines, by range, bounded in size; binary files are refused. */
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { ToolCallError, success } from '../core/result';
import { defineTool } from '../core/tool';
import { openForReading } from './confined-open';
import { orFsError } from './fs-errors';
import { type FilesConfig, READ_DECLARATION } from './options';
import { sniffBinary } from './text-file';

const CHUNK_BYTES = 64 * 1024;

/** The file's text in chunks, read by position through the descriptor that was checked. */
async function* chunksOf(handle: FileHandle, signal: AbortSignal): AsyncGenerator<string> {
  const buf = Buffer.alloc(CHUNK_BYTES);
  const decoder = new StringDecoder('utf8');
  for (let position = 0; ; ) {
    signal.throwIfAborted();
    const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    yield decoder.write(buf.subarray(0, bytesRead));
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/** Past this size, lines after the requested range are not counted (the total stays unknown). */
const COUNT_ALL_LINES_BELOW = 10 * 1024 * 1024;

interface Window {
  lines: string[];
  lastLine: number;
  totalLines: number | null;
  truncatedBySize: boolean;
  clippedLines: number[];
}

/**
 * Streams lines [start, end] until `maxBytes` of output. Split here rather than with readline
 * because readline buffers a whole line: a minified or corrupt file with one gigabyte-long line
 * would be held in memory. Here a line longer than the output limit keeps only its head.
 */
async function readWindow(
  handle: FileHandle,
  start: number,
  end: number,
  maxBytes: number,
  fileSize: number,
  signal: AbortSignal,
): Promise<Window> {
  const w: Window = { lines: [], lastLine: start - 1, totalLines: null, truncatedBySize: false, clippedLines: [] };
  let bytes = 0;
  let n = 0;
  let partial = '';
  let partialClipped = false;
  const take = (raw: string, clipped: boolean): boolean => {
    n += 1;
    if (n < start) return true;
    if (n > end || w.truncatedBySize) return fileSize <= COUNT_ALL_LINES_BELOW;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > maxBytes && w.lines.length > 0) {
      w.truncatedBySize = true;
      return fileSize <= COUNT_ALL_LINES_BELOW;
    }
    w.lines.push(line.length > maxBytes ? line.slice(0, maxBytes) : line);
    if (clipped || line.length > maxBytes) w.clippedLines.push(n);
    bytes += Math.min(size, maxBytes);
    w.lastLine = n;
    return true;
  };
  let keepGoing = true;
  for await (const chunk of chunksOf(handle, signal)) {
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0 && keepGoing; nl = chunk.indexOf('\n', from)) {
      keepGoing = take(partial + chunk.slice(from, nl), partialClipped);
      partial = '';
      partialClipped = false;
      from = nl + 1;
    }
    if (!keepGoing) break;
    if (!partialClipped) partial += chunk.slice(from);
    if (partial.length > maxBytes) {
      partial = partial.slice(0, maxBytes);
      partialClipped = true;
    }
  }
  if (keepGoing && (partial !== '' || partialClipped)) keepGoing = take(partial, partialClipped);
  if (keepGoing) w.totalLines = n;
  return w;
}

export function readFileTool(config: FilesConfig) {
  return defineTool({
    id: 'read_file',
    title: 'Read a file',
    description:
      'Reads a text file of the workspace, or lines startLine to endLine (1-based, inclusive). At ' +
      `most ${config.maxReadBytes} bytes a call; the result says the startLine to go on from.`,
    input: z.object({
      path: WORKSPACE_PATH,
      startLine: z.number().int().min(1).default(1),
      endLine: z.number().int().min(1).optional(),
      lineNumbers: z.boolean().default(false),
    }),
    ...READ_DECLARATION,
    run: async (args, ctx) => {
      const end = args.endLine ?? Number.MAX_SAFE_INTEGER;
      if (end < args.startLine) {
        throw new ToolCallError('INVALID_ARGUMENT', `endLine (${end}) is before startLine (${args.startLine}).`, {
          data: { fields: ['endLine'] },
        });
      }
      const { handle, stat: info, location } = await openForReading(config, args.path, 'read');
      const { rel } = location;
      let w: Window;
      try {
        if (await orFsError(sniffBinary(handle), rel, 'read')) {
          throw new ToolCallError(
            'UNSUPPORTED',
            `"${rel}" is a binary file (${info.size} bytes); only text files can be read.`,
            {
              hint: 'Use file_hash to fingerprint it, or list_files to see its size.',
            },
          );
        }
        w = await orFsError(
          readWindow(handle, args.startLine, end, config.maxReadBytes, info.size, ctx.signal),
          rel,
          'read',
        );
      } finally {
        await handle.close();
      }
      if (w.lines.length === 0 && args.startLine > 1) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `"${rel}" has ${w.totalLines ?? 'fewer'} lines; startLine ${args.startLine} is past the end.`,
          { data: { fields: ['startLine'] } },
        );
      }
      const body = args.lineNumbers
        ? w.lines.map((l, i) => `${args.startLine + i}\t${l}`).join('\n')
        : w.lines.join('\n');
      // Whether the file goes on after the last returned line (unknown length counts as yes).
      const more = w.totalLines === null || w.lastLine < w.totalLines;
      const content = [{ type: 'text' as const, text: body }];
      if (w.clippedLines.length > 0) {
        content.push({
          type: 'text',
          text:
            `[Line(s) ${w.clippedLines.slice(0, 10).join(', ')} are longer than ${config.maxReadBytes} ` +
            'characters and were cut.]',
        });
      }
      if (w.truncatedBySize) {
        content.push({
          type: 'text',
          text:
            `[Output limit of ${config.maxReadBytes} bytes reached at line ${w.lastLine}; continue with ` +
            `startLine=${w.lastLine + 1}.]`,
        });
      }
      return success(content, {
        path: rel,
        startLine: args.startLine,
        endLine: w.lastLine,
        totalLines: w.totalLines,
        bytes: info.size,
        truncated: w.truncatedBySize,
        clippedLines: w.clippedLines,
        more,
      });
    },
  });
}
