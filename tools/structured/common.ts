/**
 * What every structured tool shares: offline, deterministic, read-only computations, so they are
 * LOW risk, idempotent and closed-world, and run under the quickRead policy.
 */
import type { ToolAnnotations } from '../core/annotations';
import type { ToolMetadataDeclaration } from '../core/metadata';

export interface StructuredDeps {
  /** Files named by `path` arguments (file_hash, csv_query, xml_extract) must lie inside this folder. */
  workspaceRoot: string;
  /** Epoch milliseconds; injected so datetime, cron_next and uuid v7 are testable. */
  now?: () => number;
}

export const STRUCTURED_METADATA: ToolMetadataDeclaration = { category: 'structured', risk: 'LOW' };

export const STRUCTURED_ANNOTATIONS: Partial<ToolAnnotations> = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
  sensitiveAction: false,
};

export const STRUCTURED_POLICY = 'quickRead';

export const structuredDeclaration = {
  metadata: STRUCTURED_METADATA,
  annotations: STRUCTURED_ANNOTATIONS,
  runPolicy: STRUCTURED_POLICY,
} as const;
