/** Argument shapes shared by the device tools, with messages a model can act on. */
import { z } from 'zod';
import { ToolCallError } from '../../core/result';
import type { CommandOutput } from './device-tool';

/**
 * Android application ids: dot-separated segments of letters, digits and underscores, each starting
 * with a letter. Checked, not published as a pattern: the example shows the form and a refusal names it.
 */
export const PACKAGE_NAME = z
  .string()
  .refine(
    (name) => /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(name),
    'not an Android package name; expected something like "com.example.app" (use app_list to see the installed ones)',
  )
  .describe('e.g. "com.example.notes".');

/** What a failed device command printed, for the error message. */
export function firstLines(output: string, max = 3): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.slice(0, max).join(' / ').slice(0, 400) || '(no output)';
}

/** Throws EXECUTION_FAILED naming the step when a command exited non-zero. */
export function requireSuccess(result: CommandOutput, what: string, hint?: string): string {
  if (result.exitCode === 0) return result.output;
  throw new ToolCallError(
    'EXECUTION_FAILED',
    `${what} failed (exit status ${result.exitCode ?? 'unknown'}): ${firstLines(result.output)}`,
    hint ? { hint } : {},
  );
}

/** Splits the output of several commands joined with `echo SEPARATOR`. */
export const SEPARATOR = '__toolgate_part__';
export function splitParts(output: string): string[] {
  return output.split(`${SEPARATOR}\n`);
}
