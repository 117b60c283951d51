/**
 * download_file: stream a URL into the workspace with progress. Bytes go to a hidden temp file
 * next to the target and are renamed over it only when complete, so an interrupted download
 * (dropped connection, cancel, timeout, size cap) leaves neither a partial file under the final
 * name nor temp litter. 404/410 are NOT_FOUND; other statuses map as in `statusFailure`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { HTTP_URL, WORKSPACE_PATH, timeoutMs } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { type ToolContext, defineTool } from '../core/tool';
import { resolveInsideRoot, workspaceRelative } from '../files/path-guard';
import { callSignal, fetchWithRedirects, networkFailure, statusFailure } from './http-fetch';
import { originOf } from './http-url';
import type { NetworkSettings } from './options';
import { headersInput } from './request-headers';
import { openRequest } from './request-opening';
import { redactUrl, scrubValue } from './secrets';

const DEFAULT_DOWNLOAD_TIMEOUT_MS = 300_000;
/** Progress is reported at most every this many bytes (plus at the end), so a fast download does not flood the UI. */
const PROGRESS_STEP = 256 * 1024;

const input = z.object({
  url: HTTP_URL,
  path: WORKSPACE_PATH.min(1).describe('In the workspace; missing folders are made.'),
  overwrite: z.boolean().default(false),
  headers: headersInput,
  maxBytes: z.number().int().min(1).optional().describe('Refuse a larger file.'),
  timeoutMs: timeoutMs(1, 3_600_000).default(DEFAULT_DOWNLOAD_TIMEOUT_MS),
});

export function downloadFileTool(settings: NetworkSettings) {
  return defineTool({
    id: 'download_file',
    title: 'Download file',
    description: 'Downloads a file over http(s) into the workspace; it appears under its name only when complete.',
    input,
    metadata: { category: 'network', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    breakerScope: (args) => originOf(args.url),
    async run(args, ctx) {
      const { url, headers, secrets } = openRequest(args.url, args.headers);
      const cap = Math.min(args.maxBytes ?? settings.maxDownloadBytes, settings.maxDownloadBytes);
      const target = await resolveInsideRoot(settings.workspaceRoot, args.path);
      const shownPath = await workspaceRelative(settings.workspaceRoot, target);
      await refuseFolder(target, shownPath);
      if (!args.overwrite && (await exists(target))) {
        throw new ToolCallError('INVALID_ARGUMENT', `Invalid arguments: ${shownPath} already exists.`, {
          hint: 'Choose another path, or pass overwrite: true to replace it.',
          data: { fields: ['path'] },
        });
      }
      const timer = callSignal(ctx.signal, args.timeoutMs);
      try {
        const { response, finalUrl } = await fetchWithRedirects(
          { url, method: 'GET', headers },
          { fetchImpl: settings.fetchImpl, signal: timer.signal },
        );
        if (!response.ok) {
          await response.body?.cancel().catch(() => undefined);
          throw statusFailure(response, finalUrl);
        }
        const declared = Number(response.headers.get('content-length'));
        const known = Number.isFinite(declared) && declared > 0 ? declared : undefined;
        if (known !== undefined && known > cap) {
          await response.body?.cancel().catch(() => undefined);
          throw tooLarge(known, cap);
        }
        // A compressed body is decoded by fetch, so its Content-Length is not the size we will write.
        const encoding = response.headers.get('content-encoding');
        const total = !encoding || encoding === 'identity' ? known : undefined;
        await mkdir(dirname(target), { recursive: true });
        const written = await streamToFile(response, target, cap, total, ctx);
        const result = {
          path: shownPath,
          bytes: written.bytes,
          sha256: written.sha256,
          contentType: response.headers.get('content-type'),
          url: redactUrl(finalUrl),
        };
        return jsonSuccess(scrubValue(result, secrets));
      } catch (e) {
        throw networkFailure(e, { url, timeoutMs: args.timeoutMs, cause: timer.cause() });
      }
    },
  });
}

async function streamToFile(
  response: Response,
  target: string,
  cap: number,
  total: number | undefined,
  ctx: ToolContext,
): Promise<{ bytes: number; sha256: string }> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
  const file = await open(temp, 'wx');
  const hash = createHash('sha256');
  let bytes = 0;
  let reported = 0;
  let renamed = false;
  try {
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      bytes += chunk.value.byteLength;
      if (bytes > cap) {
        await reader?.cancel().catch(() => undefined);
        throw tooLarge(undefined, cap);
      }
      hash.update(chunk.value);
      await file.write(chunk.value);
      if (bytes - reported >= PROGRESS_STEP) {
        reported = bytes;
        ctx.progress(progressUpdate(bytes, total));
      }
    }
    await file.close();
    await rename(temp, target);
    renamed = true;
    ctx.progress(progressUpdate(bytes, total ?? bytes));
    return { bytes, sha256: hash.digest('hex') };
  } finally {
    if (!renamed) {
      await file.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    }
  }
}

function progressUpdate(bytes: number, total: number | undefined) {
  const message = total ? `Downloaded ${bytes} of ${total} bytes` : `Downloaded ${bytes} bytes`;
  return total === undefined ? { progress: bytes, message } : { progress: bytes, total, message };
}

function tooLarge(size: number | undefined, cap: number): ToolCallError {
  const what = size === undefined ? 'The file is larger than' : `The file is ${size} bytes, more than`;
  return new ToolCallError('EXECUTION_FAILED', `${what} the ${cap}-byte download limit; nothing was saved.`, {
    hint: 'Download a smaller file, or ask the user to raise the download limit.',
    data: { maxBytes: cap, ...(size !== undefined ? { size } : {}) },
  });
}

/** The workspace root itself or an existing folder cannot be a download target. */
async function refuseFolder(target: string, shownPath: string): Promise<void> {
  const existing = await lstat(target).catch(() => undefined);
  if (shownPath !== '.' && !existing?.isDirectory()) return;
  throw new ToolCallError(
    'INVALID_ARGUMENT',
    `Invalid arguments: "path" (${shownPath}) is a folder; give a file path inside it.`,
    {
      hint: `Add a file name, e.g. ${shownPath === '.' ? '' : `${shownPath}/`}download.bin.`,
      data: { fields: ['path'] },
    },
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
