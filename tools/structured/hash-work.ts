/**
 * file_hash of given text, run in a CPU worker: up to 10 MB through four digests is over 100 ms of
 * hashing (sha512 alone), too long for the host's event loop.
 */
import { createHash } from 'node:crypto';

export const HASH_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

export interface HashTextInput {
  text: string;
  algorithms: HashAlgorithm[];
  encoding: 'hex' | 'base64';
}

export function hashTextTask(input: HashTextInput): { bytes: number; digests: Record<string, string> } {
  const data = Buffer.from(input.text, 'utf8');
  const digests = Object.fromEntries(
    input.algorithms.map((a) => [a, createHash(a).update(data).digest(input.encoding)] as const),
  );
  return { bytes: data.length, digests };
}
