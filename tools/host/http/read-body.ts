/** Reads a request body with a size cap, so an oversized body is refused (413) without buffering it. */
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeds ${limit} bytes.`);
  }
}

/** The body's bytes, at most `limit` of them. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return readChunks(req, limit, (chunk) => chunks.push(chunk)).then(() => Buffer.concat(chunks));
}

/**
 * The body as UTF-8 text, at most `limit` bytes, decoded chunk by chunk as it arrives: a body of
 * megabytes is never copied whole into one buffer and then decoded in one go on the event loop.
 */
export function readBodyText(req: IncomingMessage, limit: number): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  return readChunks(req, limit, (chunk) => {
    text += decoder.write(chunk);
  }).then(() => text + decoder.end());
}

function readChunks(req: IncomingMessage, limit: number, take: (chunk: Buffer) => void): Promise<void> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError(limit));
        return;
      }
      take(chunk);
    });
    req.on('end', () => resolve());
    req.on('error', reject);
  });
}
