/**
 * The nine codes a tool's error carries (docs/architecture.md#results-and-error-codes), in one
 * place: the host's results (tools/core/result.ts) and the renderer's contract both take them from
 * here. Free of imports, as shared/ code the renderer reads must be.
 */
export const TOOL_ERROR_CODES = [
  'INVALID_ARGUMENT',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'TIMEOUT',
  'RATE_LIMITED',
  'CIRCUIT_OPEN',
  'EXECUTION_FAILED',
  'UNSUPPORTED',
  'UNKNOWN',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];
