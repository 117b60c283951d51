/** Shared pieces of the GitHub tools: how each reaches the client, their declarations, and common inputs. */
import { z } from 'zod';
import type { ToolAnnotations } from '../core/annotations';
import type { ToolMetadataDeclaration } from '../core/metadata';
import type { GithubClient } from './client';

/** The client for the current token and base URL; the tools are registered only while a token is set. */
export type ClientSource = () => GithubClient;

export const READ_DECLARATION = {
  metadata: { category: 'github', risk: 'LOW' } satisfies ToolMetadataDeclaration,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
    sensitiveAction: false,
  } satisfies ToolAnnotations,
  runPolicy: 'network',
} as const;

/** Writes act on the person's behalf where others see them: HIGH, so each waits for approval. */
export function writeDeclaration(opts: { destructive: boolean; idempotent: boolean }) {
  return {
    metadata: { category: 'github', risk: 'HIGH' } satisfies ToolMetadataDeclaration,
    annotations: {
      readOnlyHint: false,
      destructiveHint: opts.destructive,
      idempotentHint: opts.idempotent,
      openWorldHint: true,
      sensitiveAction: true,
    } satisfies ToolAnnotations,
    runPolicy: 'mutating',
  } as const;
}

const NAME = /^[A-Za-z0-9_.-]+$/;

export const owner = z
  .string()
  .min(1)
  .max(100)
  .regex(NAME, 'a GitHub user or organization name: letters, digits, -, _ and . only')
  .describe('The account that owns the repository, e.g. "octokit".');

export const repo = z
  .string()
  .min(1)
  .max(100)
  .regex(NAME, 'a repository name: letters, digits, -, _ and . only')
  .describe('The repository name, e.g. "rest.js".');

export const ref = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe("A branch, tag or commit sha (default: the repository's default branch).");

export const filePath = z
  .string()
  .min(1)
  .max(1000)
  .refine((p) => !p.split('/').includes('..'), 'must not contain ".."')
  .describe('The file path inside the repository, e.g. "docs/README.md".');

/** Most items a listing returns, across pages (GitHub pages hold at most 100). */
export const MAX_ITEMS = 300;

export const limit = (what: string, fallback = 30) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_ITEMS)
    .default(fallback)
    .describe(`Most ${what} to return (default ${fallback}, at most ${MAX_ITEMS}; pages are fetched as needed).`);

/** Collects up to `max` items from a paginated listing, fetching no more pages than needed. */
export async function collect<T>(
  pages: AsyncIterable<{ data: T[] }>,
  max: number,
): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  for await (const page of pages) {
    for (const item of page.data) {
      if (items.length === max) return { items, more: true };
      items.push(item);
    }
  }
  return { items, more: false };
}
