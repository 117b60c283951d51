/**
 * What phones answer when they refuse an action, as model-readable errors that name the setting
 * or step that fixes it: OEM builds that withhold INJECT_EVENTS from adb's shell, and the output
 * of an `input` command that failed.
 */
import { ToolCallError } from '../../core/result';
import { firstLines } from './arguments';
import type { CommandOutput } from './device-tool';

const INJECT_EVENTS = /INJECT_EVENTS permission/;

export const INJECTION_SETTINGS =
  'On Xiaomi, Redmi and POCO phones (MIUI, HyperOS) turn on Settings > Additional settings > Developer options > ' +
  '"USB debugging (Security settings)" (it asks for a signed-in Mi account); on OPPO, realme and OnePlus phones ' +
  '(ColorOS) turn on "Disable permission monitoring" in Developer options. Then retry.';

/** Throws the refusal when the output shows the phone withholding input injection from the shell. */
export function throwIfInjectionRefused(output: string, serial: string): void {
  if (!INJECT_EVENTS.test(output)) return;
  throw new ToolCallError(
    'PERMISSION_DENIED',
    `${serial} refused to inject input: "java.lang.SecurityException: Injecting input events requires the caller ` +
      '... to have the INJECT_EVENTS permission." Its OEM security blocks taps, swipes, keys and typing from adb ' +
      'until a setting is turned on.',
    { hint: INJECTION_SETTINGS, data: { refusal: 'inject-events', setting: 'USB debugging (Security settings)' } },
  );
}

/** The output of an `input …` command, or the error that says why it did nothing. */
export function requireInput(result: CommandOutput, serial: string, what: string): string {
  throwIfInjectionRefused(result.output, serial);
  if (result.exitCode === 0 && !/Exception/.test(result.output)) return result.output;
  throw new ToolCallError(
    'EXECUTION_FAILED',
    `${what} failed on ${serial} (exit status ${result.exitCode ?? 'unknown'}): ${firstLines(result.output)}`,
  );
}
