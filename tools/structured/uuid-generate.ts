/**
 * uuid_generate: v4 (random, node:crypto), v7 (time-ordered, from the injected clock), and the
 * name-based v5/v3 (RFC 9562: SHA-1/MD5 of namespace + name), which are deterministic.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { type StructuredDeps, structuredDeclaration } from './common';

/** The namespaces RFC 9562 defines. */
export const NAMESPACES: Record<string, string> = {
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function format(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function stamp(bytes: Buffer, version: number): Buffer {
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | (version << 4);
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return bytes;
}

export function nameBasedUuid(version: 3 | 5, namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const digest = createHash(version === 5 ? 'sha1' : 'md5')
    .update(ns)
    .update(name, 'utf8')
    .digest();
  return format(stamp(digest.subarray(0, 16), version));
}

export function uuidV7(nowMs: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.floor(nowMs), 0, 6);
  return format(stamp(bytes, 7));
}

function resolveNamespace(value: string | undefined): string {
  if (value === undefined) {
    throw new ToolCallError('INVALID_ARGUMENT', 'Versions 3 and 5 need a "namespace" and a "name".', {
      data: { fields: ['namespace'] },
    });
  }
  const known = NAMESPACES[value.toLowerCase()];
  if (known) return known;
  if (UUID.test(value)) return value.toLowerCase();
  throw new ToolCallError(
    'INVALID_ARGUMENT',
    `Namespace "${value.slice(0, 60)}" is neither dns, url, oid, x500 nor a UUID.`,
    {
      hint: 'Use "dns", "url", "oid", "x500", or a UUID such as "6ba7b810-9dad-11d1-80b4-00c04fd430c8".',
      data: { fields: ['namespace'] },
    },
  );
}

export function uuidGenerate(deps: StructuredDeps) {
  const now = deps.now ?? Date.now;
  return defineTool({
    id: 'uuid_generate',
    title: 'Generate UUIDs',
    description:
      'UUIDs: version 4 random, 7 time-ordered, or 5 and 3 from ' +
      'namespace and name (the same name gives the same UUID).',
    input: z.object({
      version: z.union([z.literal(4), z.literal(7), z.literal(5), z.literal(3)]).default(4),
      count: z.number().int().min(1).max(100).default(1),
      namespace: z.string().optional().describe('"dns", "url", "oid", "x500" or a UUID.'),
      name: z.string().max(10_000).optional(),
      uppercase: z.boolean().default(false),
    }),
    ...structuredDeclaration,
    run: (args) => {
      let uuids: string[];
      if (args.version === 3 || args.version === 5) {
        const namespace = resolveNamespace(args.namespace);
        if (args.name === undefined)
          throw new ToolCallError('INVALID_ARGUMENT', 'Versions 3 and 5 need a "name".', {
            data: { fields: ['name'] },
          });
        uuids = [nameBasedUuid(args.version, namespace, args.name)];
      } else {
        const make = args.version === 7 ? () => uuidV7(now()) : () => randomUUID();
        uuids = Array.from({ length: args.count }, make);
      }
      return jsonSuccess({ version: args.version, uuids: args.uppercase ? uuids.map((u) => u.toUpperCase()) : uuids });
    },
  });
}
