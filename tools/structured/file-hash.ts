/**
 * file_hash: md5/sha1/sha256/sha512 of a workspace file or of given text.
 *
 * A file is hashed as it streams on the main thread: reading is the slow part, each 64 KB chunk
 * costs about a millisecond of hashing with all four digests, and the stream yields to the event
 * loop between chunks, so no file size blocks the host; the read also stays where the path guard
 * checked the path. Given text arrives whole (up to 10 MB, over 100 ms of sha512), so it is hashed
 * in a CPU worker.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { resolveInsideRoot } from '../files/path-guard';
import { type StructuredDeps, structuredDeclaration } from './common';
import { runStructured } from './cpu';
import { HASH_ALGORITHMS, type HashAlgorithm } from './hash-work';

export const HASH_TEXT_BOUND_MS = 2000;

async function hashFile(
  file: string,
  algorithms: HashAlgorithm[],
  encoding: 'hex' | 'base64',
  signal: AbortSignal,
): Promise<{ bytes: number; digests: Record<string, string> }> {
  const hashes = algorithms.map((a) => [a, createHash(a)] as const);
  let bytes = 0;
  for await (const chunk of createReadStream(file, { signal })) {
    const buf = chunk as Buffer;
    bytes += buf.length;
    for (const [, h] of hashes) h.update(buf);
  }
  return { bytes, digests: Object.fromEntries(hashes.map(([a, h]) => [a, h.digest(encoding)])) };
}

export function fileHash(deps: StructuredDeps) {
  return defineTool({
    id: 'file_hash',
    title: 'Hash a file or text',
    description:
      'Digests of a workspace file or of a text (UTF-8): to fingerprint or compare files, or check a download.',
    input: z.object({
      path: WORKSPACE_PATH.optional(),
      text: z.string().max(10_000_000).optional().describe('Give this or path.'),
      algorithm: z.union([z.enum(HASH_ALGORITHMS), z.array(z.enum(HASH_ALGORITHMS)).min(1)]).default('sha256'),
      encoding: z.enum(['hex', 'base64']).default('hex'),
    }),
    ...structuredDeclaration,
    run: async (args, ctx) => {
      if ((args.path === undefined) === (args.text === undefined)) {
        throw new ToolCallError('INVALID_ARGUMENT', 'Give exactly one of "path" (a workspace file) or "text".', {
          data: { fields: ['path', 'text'] },
        });
      }
      const algorithms = [...new Set(Array.isArray(args.algorithm) ? args.algorithm : [args.algorithm])];
      let hashed: { bytes: number; digests: Record<string, string> };
      if (args.text !== undefined) {
        hashed = await runStructured('hash.text', {
          toolId: 'file_hash',
          input: { text: args.text, algorithms, encoding: args.encoding },
          boundMs: HASH_TEXT_BOUND_MS,
          whenBound: 'hash a shorter text',
          boundHint: 'Hash the text in parts, or write it to a workspace file and hash the file by "path".',
          signal: ctx.signal,
        });
      } else {
        const file = await resolveInsideRoot(deps.workspaceRoot, args.path ?? '');
        const info = await stat(file).catch(() => null);
        if (!info)
          throw new ToolCallError('NOT_FOUND', `No file at "${args.path}".`, {
            hint: 'Check the path with list_files or glob_files, then retry.',
          });
        if (!info.isFile())
          throw new ToolCallError('INVALID_ARGUMENT', `"${args.path}" is not a regular file.`, {
            data: { fields: ['path'] },
          });
        hashed = await hashFile(file, algorithms, args.encoding, ctx.signal);
      }
      return jsonSuccess({
        source: args.path ?? 'text',
        bytes: hashed.bytes,
        encoding: args.encoding,
        digests: hashed.digests,
      });
    },
  });
}
