/**
 * Request headers a model supplies are checked here, before fetch sees them: fetch's own errors
 * quote the offending value, and the value may be a credential. Messages name the header only.
 */
import { z } from 'zod';
import { ToolCallError } from '../core/result';

export const headersInput = z
  .record(z.string(), z.string())
  .optional()
  .describe('Credentials are sent, never shown back.');

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by the HTTP client from the request itself; a model-supplied value would only corrupt the request. */
const MANAGED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

export function checkedHeaders(headers: Record<string, string> | undefined, field = 'headers'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const path = `${field}.${name}`;
    if (!TOKEN.test(name)) throw invalid(path, `header name "${printable(name)}" is not a valid HTTP header name`);
    if (MANAGED.has(name.toLowerCase()))
      throw invalid(
        path,
        `header "${name}" is set by the HTTP client and cannot be given`,
        'Leave this header out; it is computed from the request.',
      );
    if (/[\r\n\0]/.test(value))
      throw invalid(path, `the value of header "${name}" contains a line break or NUL character`);
    out[name] = value;
  }
  return out;
}

export function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((n) => n.toLowerCase() === lower);
}

function invalid(field: string, message: string, hint?: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `Invalid arguments: ${message}.`, {
    ...(hint ? { hint } : {}),
    data: { fields: [field] },
  });
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').slice(0, 60);
}
