/**
 * ADBKeyboard for input_text: which keyboards the phone has (`settings get secure
 * default_input_method`, `ime list`), the switch to ADBKeyboard when text needs it (enable, `ime
 * set`, wait until it is current), and the switch back to the person's keyboard, which runs however
 * the typing ended (a failure, a cancel, the call's timeout) on a deadline of its own and is said to
 * be done only when the phone said so.
 */
import { isToolCallError, ToolCallError } from '../../core/result';
import { sh } from '../shell-words';
import { SEPARATOR, firstLines, splitParts } from './arguments';
import type { DeviceCall } from './device-tool';

export const ADB_KEYBOARD = 'com.android.adbkeyboard/.AdbIME';
/** The switch back's own deadline per command: the call's time may be spent or its signal aborted. */
const RESTORE_TIMEOUT_MS = 5_000;

export interface Keyboards {
  selected: string;
  installed: string[];
  enabled: string[];
}

export async function keyboards(device: DeviceCall): Promise<Keyboards> {
  const r = await device.run(
    `settings get secure default_input_method; echo ${SEPARATOR}; ime list -a -s; echo ${SEPARATOR}; ime list -s`,
  );
  const [selected = '', installed = '', enabled = ''] = splitParts(r.output);
  const ids = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^[\w.]+\/[\w.$]+$/.test(l));
  return { selected: selected.trim(), installed: ids(installed), enabled: ids(enabled) };
}

const INSTALL_HINT =
  'Install ADBKeyboard (https://github.com/senzhk/ADBKeyBoard: `adb install ADBKeyboard.apk`), then retry; ' +
  'input_text selects it for the typing and switches back. Plain ASCII text needs no keyboard.';

/** A switch to ADBKeyboard: the person's keyboard to go back to, and whether the tool enabled ADBKeyboard. */
export interface KeyboardSwitch {
  previous: string;
  enabledByUs: boolean;
}

/**
 * The switch to ADBKeyboard this typing needs (undefined when it is selected already), or the
 * refusal when it cannot be made. Nothing is changed on the phone yet.
 */
export function planSwitch(device: DeviceCall, kb: Keyboards, allowSwitch: boolean): KeyboardSwitch | undefined {
  if (kb.selected === ADB_KEYBOARD) return undefined;
  if (!kb.installed.includes(ADB_KEYBOARD))
    throw new ToolCallError(
      'UNSUPPORTED',
      'Typing text that `input text` cannot type (non-ASCII characters, newlines or "%s") needs the ' +
        `ADBKeyboard input method, and it is not installed on ${device.serial}.`,
      { hint: INSTALL_HINT, data: { keyboard: kb.selected || null, adbKeyboard: 'absent' } },
    );
  if (!allowSwitch)
    throw new ToolCallError(
      'UNSUPPORTED',
      `ADBKeyboard is installed on ${device.serial} but ${kb.selected || 'another keyboard'} is the selected ` +
        'input method, so its broadcasts would type nothing.',
      {
        hint:
          'Retry with switchKeyboard=true (the default), or select it on the phone: ' +
          `\`ime enable ${ADB_KEYBOARD}\` and \`ime set ${ADB_KEYBOARD}\`.`,
        data: { keyboard: kb.selected || null, adbKeyboard: 'not-selected' },
      },
    );
  return { previous: kb.selected, enabledByUs: !kb.enabled.includes(ADB_KEYBOARD) };
}

/** Enables (when planned) and selects ADBKeyboard, and waits until it is the current input method. */
export async function selectAdbKeyboard(device: DeviceCall, plan: KeyboardSwitch): Promise<void> {
  if (plan.enabledByUs) await imeCommand(device, sh`ime enable ${ADB_KEYBOARD}`);
  await imeCommand(device, sh`ime set ${ADB_KEYBOARD}`);
  // The IME service registers ADBKeyboard's receiver when it starts: wait until it is current.
  for (let i = 0; i < 10; i++) {
    const current = (await device.run("dumpsys input_method | grep -E 'mCurMethodId='")).output;
    if (current.includes(`mCurMethodId=${ADB_KEYBOARD}`)) break;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** How the switch back went: the person's keyboard selected again, ADBKeyboard disabled again, what is not. */
export interface Restored {
  back: boolean;
  disabled: boolean;
  /** Sentences for the answer when something is not as it was, naming the commands that put it back. */
  note: string;
}

/**
 * Runs one command of the switch back outside the call's signal, on its own deadline, judged as
 * imeCommand judges (exit status, "Unknown input method"); what went wrong, or undefined.
 */
async function restoreCommand(device: DeviceCall, command: string): Promise<string | undefined> {
  try {
    const r = await device.service.manager.shell(device.serial, command, { timeoutMs: RESTORE_TIMEOUT_MS });
    if (r.exitCode === 0 && !/Unknown input method/.test(r.output)) return undefined;
    const status = r.exitCode === null ? 'its output was cut off' : `exit status ${r.exitCode}`;
    return `\`${command}\` answered "${firstLines(r.output)}" (${status})`;
  } catch (e) {
    return `\`${command}\` failed: ${(isToolCallError(e) ? e.message : String(e)).replace(/\.$/, '')}`;
  }
}

/**
 * Switches back to the person's keyboard, then disables ADBKeyboard again when the tool enabled it
 * (not while it is still selected: Android would then pick a keyboard of its own).
 */
export async function restoreKeyboard(device: DeviceCall, plan: KeyboardSwitch): Promise<Restored> {
  const run = `in \`adb -s ${device.serial} shell\``;
  const set = sh`ime set ${plan.previous}`;
  const setFailed = await restoreCommand(device, set);
  if (setFailed)
    return {
      back: false,
      disabled: false,
      note:
        ` The keyboard could NOT be switched back to ${plan.previous}: ${setFailed}. ADBKeyboard is still ` +
        `selected on ${device.serial}; select the keyboard on the phone, or run \`${set}\` ${run}.`,
    };
  if (!plan.enabledByUs) return { back: true, disabled: false, note: '' };
  const disable = sh`ime disable ${ADB_KEYBOARD}`;
  const disableFailed = await restoreCommand(device, disable);
  if (!disableFailed) return { back: true, disabled: true, note: '' };
  return {
    back: true,
    disabled: false,
    note: ` ADBKeyboard could NOT be disabled again: ${disableFailed}; run \`${disable}\` ${run}.`,
  };
}

/** A failure of the typing, with what the switch back could not undo added to its message. */
export function withRestoreNote(e: unknown, restored: Restored): unknown {
  if (!restored.note || !isToolCallError(e)) return e;
  return new ToolCallError(e.toolErrorCode, `${e.message}${restored.note}`, {
    ...(e.hint ? { hint: e.hint } : {}),
    data: { ...e.data, keyboardRestored: restored.back },
  });
}

async function imeCommand(device: DeviceCall, command: string): Promise<void> {
  const r = await device.run(command);
  if (r.exitCode !== 0 || /Unknown input method/.test(r.output))
    throw new ToolCallError('EXECUTION_FAILED', `\`${command}\` failed on ${device.serial}: ${firstLines(r.output)}`);
}
