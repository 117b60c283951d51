/**
 * Configuration and shared declarations of the files family. Every tool receives the same
 * resolved options; the workspace root is fixed by the host, never by a model.
 */
import type { ToolAnnotations } from '../core/annotations';
import type { ToolMetadataDeclaration } from '../core/metadata';
import { resolveInsideRoot, workspaceRelative } from './path-guard';
import type { SecretFiles } from './secret-files';

export interface FilesOptions {
  /** The folder the tools may touch; nothing outside it is read, written, listed, moved or deleted. */
  workspaceRoot: string;
  /** Most bytes read_file returns in one call (default 256 KiB); search_files skips larger files than 8× this. */
  maxReadBytes?: number;
  /** Largest file write_file or edit_file will produce (default 10 MiB). */
  maxWriteBytes?: number;
  /**
   * The host's own secret files (token, database, logs…), refused by identity whatever path leads
   * to them: the host passes it, since a person may choose a workspace that contains its data dir.
   */
  secretFiles?: SecretFiles;
}

export interface FilesConfig {
  root: string;
  maxReadBytes: number;
  maxWriteBytes: number;
  secrets: SecretFiles;
}

export const DEFAULT_MAX_READ_BYTES = 256 * 1024;
export const DEFAULT_MAX_WRITE_BYTES = 10 * 1024 * 1024;

export function resolveFilesConfig(opts: FilesOptions): FilesConfig {
  return {
    root: opts.workspaceRoot,
    maxReadBytes: opts.maxReadBytes ?? DEFAULT_MAX_READ_BYTES,
    maxWriteBytes: opts.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES,
    secrets: opts.secretFiles ?? (() => false),
  };
}

/** A user path resolved inside the root, with its workspace-relative form for messages and output. */
export interface GuardedPath {
  abs: string;
  rel: string;
}

export async function guard(config: FilesConfig, userPath: string): Promise<GuardedPath> {
  const abs = await resolveInsideRoot(config.root, userPath);
  return { abs, rel: await workspaceRelative(config.root, abs) };
}

export const READ_DECLARATION = {
  metadata: { category: 'files', risk: 'LOW' } satisfies ToolMetadataDeclaration,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
    sensitiveAction: false,
  } satisfies Partial<ToolAnnotations>,
  runPolicy: 'quickRead',
} as const;

export function mutatingDeclaration(risk: 'MEDIUM' | 'HIGH', idempotent: boolean) {
  return {
    metadata: { category: 'files', risk } satisfies ToolMetadataDeclaration,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: idempotent,
      openWorldHint: false,
      sensitiveAction: risk === 'HIGH',
    } satisfies Partial<ToolAnnotations>,
    runPolicy: 'mutating',
  } as const;
}
