/**
 * ToolAnnotations (docs/architecture.md#metadata-and-annotations): the four MCP hints plus
 * sensitiveAction. `retrySafe` is derived: replaying a call is safe only when it is read-only or
 * idempotent (replaying a destructive call that already succeeded loses data). Built-in tools
 * declare them; for other tools what is not declared is inferred (inferAnnotations).
 */
import type { RiskLevel } from './risk';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
  sensitiveAction: boolean;
}

/** What the MCP specification assumes when a server declares nothing. */
export const MCP_DEFAULT_ANNOTATIONS: Readonly<ToolAnnotations> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
  sensitiveAction: false,
};

export function retrySafe(a: Pick<ToolAnnotations, 'readOnlyHint' | 'idempotentHint'>): boolean {
  return a.readOnlyHint || a.idempotentHint;
}

/**
 * Annotations for a tool that declared fewer than all of them: one Toolgate did not write. For an
 * id whose prefix names a known family (a shortcut, a skill) nothing is assumed read-only or
 * idempotent and HIGH risk is destructive; for an id nobody knows, the MCP defaults apply, since
 * assuming a stranger is harmless is the dangerous direction. Declared hints always win.
 */
export function inferAnnotations(
  id: string,
  risk: RiskLevel,
  declared: Partial<ToolAnnotations> = {},
  knownFamily = true,
): ToolAnnotations {
  const inferred: ToolAnnotations = knownFamily
    ? {
        readOnlyHint: false,
        destructiveHint: risk === 'HIGH',
        idempotentHint: false,
        openWorldHint: !id.startsWith('shortcut_'),
        sensitiveAction: risk === 'HIGH',
      }
    : { ...MCP_DEFAULT_ANNOTATIONS, sensitiveAction: risk === 'HIGH' };
  return { ...inferred, ...declared };
}
