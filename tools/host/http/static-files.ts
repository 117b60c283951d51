/** Serves the renderer build (out/renderer) with a strict CSP; paths never leave the build folder. */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export function serveStatic(
  root: string,
  urlPath: string,
  res: ServerResponse,
  headers: Record<string, string> = {},
): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return false; // a malformed escape names no file: 404
  }
  const clean = normalize(decoded).replace(/^([/\\])+/, '');
  let file = join(root, clean || 'index.html');
  if (!file.startsWith(root + sep) && file !== root) return false;
  if (!existsSync(file) || statSync(file).isDirectory()) {
    // Client-side routes (/traces, /approvals…) all load the app shell.
    if (extname(clean)) return false;
    file = join(root, 'index.html');
    if (!existsSync(file)) return false;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': extname(file) === '.html' ? 'no-store' : 'public, max-age=31536000, immutable',
    ...headers,
  });
  createReadStream(file).pipe(res);
  return true;
}
