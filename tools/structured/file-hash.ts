/** file_hash: md5/sha1/sha256/sha512 of a workspace file (streamed, path-guarded) or of given text. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { resolveInsideRoot } from '../files/path-guard';
import { type StructuredDeps, structuredDeclaration } from './common';

const ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
type Algorithm = (typeof ALGORITHMS)[number];

async function hashFile(
  file: string,
  algorithms: Algorithm[],
  signal: AbortSignal,
): Promise<{ bytes: number; digests: Map<Algorithm, ReturnType<typeof createHash>> }> {
  const digests = new Map(algorithms.map((a) => [a, createHash(a)] as const));
  let bytes = 0;
  for await (const chunk of createReadStream(file, { signal })) {
    const buf = chunk as Buffer;
    bytes += buf.length;
    for (const h of digests.values()) h.update(buf);
  }
  return { bytes, digests };
}

export function fileHash(deps: StructuredDeps) {
  return defineTool({
    id: 'file_hash',
    title: 'Hash a file or text',
    description:
      'Computes cryptographic digests (md5, sha1, sha256, sha512) of a file in the workspace or of given text, in hex or base64. Use it to fingerprint files, compare them, or verify a download checksum.',
    input: z.object({
      path: z.string().optional().describe('A workspace-relative file path. Give this or "text".'),
      text: z.string().max(10_000_000).optional().describe('Text to hash (as UTF-8). Give this or "path".'),
      algorithm: z
        .union([z.enum(ALGORITHMS), z.array(z.enum(ALGORITHMS)).min(1)])
        .default('sha256')
        .describe('md5, sha1, sha256 (default) or sha512, or a list of them.'),
      encoding: z.enum(['hex', 'base64']).default('hex').describe('How digests are written.'),
    }),
    ...structuredDeclaration,
    run: async (args, ctx) => {
      if ((args.path === undefined) === (args.text === undefined)) {
        throw new ToolCallError('INVALID_ARGUMENT', 'Give exactly one of "path" (a workspace file) or "text".', {
          data: { fields: ['path', 'text'] },
        });
      }
      const algorithms = [...new Set(Array.isArray(args.algorithm) ? args.algorithm : [args.algorithm])];
      let bytes: number;
      let digests: Map<Algorithm, ReturnType<typeof createHash>>;
      if (args.text !== undefined) {
        const data = Buffer.from(args.text, 'utf8');
        bytes = data.length;
        digests = new Map(algorithms.map((a) => [a, createHash(a).update(data)] as const));
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
        ({ bytes, digests } = await hashFile(file, algorithms, ctx.signal));
      }
      const out = Object.fromEntries([...digests].map(([a, h]) => [a, h.digest(args.encoding)]));
      return jsonSuccess({ source: args.path ?? 'text', bytes, encoding: args.encoding, digests: out });
    },
  });
}
