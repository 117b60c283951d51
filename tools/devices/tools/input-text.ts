/**
 * input_text: types into the focused field. Printable ASCII goes through `input text`; anything
 * else (accents, emoji, CJK, newlines, a literal `%s`) needs ADBKeyboard, whose broadcast only
 * types while it is the selected input method — `am broadcast` says "completed" whether or not
 * anything arrived. So the tool checks `settings get secure default_input_method`, selects
 * ADBKeyboard with `ime set` when it is installed (and switches back afterwards, saying so), and
 * reads the focused field back from a fresh UI dump to check that the text arrived. Long text goes
 * in chunks, each its own command within the call's time; the last `input text` and the dump that
 * checks it share one shell line (one round trip to the phone).
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { SEPARATOR, firstLines, splitParts } from './arguments';
import { type DeviceCall, defineDeviceTool } from './device-tool';
import { requireInput } from './refusals';
import { type BeforeDump, readUiDump } from './ui-dump-reader';

export const ADB_KEYBOARD = 'com.android.adbkeyboard/.AdbIME';
const ASCII_CHUNK = 200;
const BROADCAST_CHUNK = 500;

/** What `input text` can type: printable ASCII, and no `%s` (which it would turn into a space). */
export function typableByInputText(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text) && !text.includes('%s');
}

/** Splits by code points, so no chunk ends inside a surrogate pair. */
function chunks(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

interface Keyboards {
  selected: string;
  installed: string[];
  enabled: string[];
}

async function keyboards(device: DeviceCall): Promise<Keyboards> {
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

/** Selects ADBKeyboard if needed; returns how to undo it (undefined when it was already selected). */
async function selectAdbKeyboard(
  device: DeviceCall,
  kb: Keyboards,
  allowSwitch: boolean,
): Promise<{ previous: string; enabledByUs: boolean } | undefined> {
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
  const enabledByUs = !kb.enabled.includes(ADB_KEYBOARD);
  if (enabledByUs) await imeCommand(device, sh`ime enable ${ADB_KEYBOARD}`);
  await imeCommand(device, sh`ime set ${ADB_KEYBOARD}`);
  // The IME service registers ADBKeyboard's receiver when it starts: wait until it is current.
  for (let i = 0; i < 10; i++) {
    const current = (await device.run("dumpsys input_method | grep -E 'mCurMethodId='")).output;
    if (current.includes(`mCurMethodId=${ADB_KEYBOARD}`)) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return { previous: kb.selected, enabledByUs };
}

async function imeCommand(device: DeviceCall, command: string): Promise<void> {
  const r = await device.run(command);
  if (r.exitCode !== 0 || /Unknown input method/.test(r.output))
    throw new ToolCallError('EXECUTION_FAILED', `\`${command}\` failed on ${device.serial}: ${firstLines(r.output)}`);
}

/** Types through ADBKeyboard's base64 broadcast, chunk by chunk. */
async function broadcast(device: DeviceCall, text: string): Promise<void> {
  for (const part of chunks(text, BROADCAST_CHUNK)) {
    const b64 = Buffer.from(part, 'utf8').toString('base64');
    const r = await device.run(sh`am broadcast -a ADB_INPUT_B64 --es msg ${b64}`);
    if (r.exitCode !== 0 || !/Broadcast completed/.test(r.output))
      throw new ToolCallError(
        'EXECUTION_FAILED',
        `ADBKeyboard's broadcast failed on ${device.serial}: ${firstLines(r.output)}`,
      );
  }
}

/**
 * Reads the focused field back: a sentence for the result, or a failure when the text is not there.
 * `typing`, when given, is the last typing command, run in the dump's line: its failure, or a line
 * that ended before it answered, fails the call as it would alone; only the check is then skipped.
 */
async function readBack(device: DeviceCall, text: string, signal: AbortSignal, typing?: string): Promise<string> {
  let read;
  let typed = typing === undefined;
  const before: BeforeDump | undefined =
    typing === undefined
      ? undefined
      : {
          command: typing,
          check(result) {
            requireInput(result, device.serial, '`input text`');
            typed = true;
          },
        };
  try {
    read = await readUiDump(device, { budgetMs: 10_000, signal, treeOnly: true, ...(before ? { before } : {}) });
  } catch (e) {
    if (!typed) throw e;
    return ` Not checked: ${e instanceof ToolCallError ? e.message : 'the screen could not be read'}`;
  }
  const field = read.snapshot.elements.find((e) => e.states.includes('focused'));
  if (!field)
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `Nothing on the screen of ${device.serial} has focus after typing, so the text went nowhere.`,
      {
        hint:
          'Tap the input field first (ui_tap) so it has focus, then retry. ' +
          '(verify=false skips this check, for fields that do not report focus.)',
        data: { arrived: false },
      },
    );
  if (field.states.includes('password')) return ' Not checked: the focused field is a password field.';
  if (field.text.includes(text)) return ' Checked: the text is in the focused field.';
  throw new ToolCallError(
    'EXECUTION_FAILED',
    `The text did not arrive on ${device.serial}: after typing, the focused field ` +
      `(${field.className}${field.id ? ` id=${field.id}` : ''}) reads ${JSON.stringify(field.text.slice(0, 200))}.`,
    {
      hint: 'Tap the input field first (ui_tap) so it has focus, check with ui_dump, then retry.',
      data: { arrived: false },
    },
  );
}

export function inputTextTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'input_text',
    title: 'Type text',
    description:
      'Types text into the focused field (tap it first) and checks it arrived. ' +
      'Text beyond ASCII needs the ADBKeyboard input method on the phone.',
    input: {
      text: z.string().min(1).max(4000),
      pressEnter: z.boolean().default(false),
      switchKeyboard: z.boolean().default(true).describe('Select ADBKeyboard for text beyond ASCII.'),
      verify: z.boolean().default(true).describe('Read the field back to check.'),
    },
    metadata: { category: 'ui', risk: 'MEDIUM', tags: ['device', 'ui'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    changesUi: true,
    async run(args, device, ctx) {
      let how = '';
      /** The last typing command, when the read-back dump runs it in its own line. */
      let typingInDump: string | undefined;
      if (typableByInputText(args.text)) {
        const parts = chunks(args.text, ASCII_CHUNK);
        for (const [i, part] of parts.entries()) {
          const command = sh`input text ${part.replace(/ /g, '%s')}`;
          const last = i === parts.length - 1;
          if (last && args.verify) {
            typingInDump = command;
            break;
          }
          const typed = await device.run(command);
          requireInput(typed, device.serial, '`input text`');
        }
      } else {
        const kb = await keyboards(device);
        const switched = await selectAdbKeyboard(device, kb, args.switchKeyboard);
        try {
          await broadcast(device, args.text);
        } finally {
          if (switched) {
            await device.run(sh`ime set ${switched.previous}`).catch(() => undefined);
            if (switched.enabledByUs) await device.run(sh`ime disable ${ADB_KEYBOARD}`).catch(() => undefined);
          }
        }
        // Say every setting the tool changed on the person's phone, even the ones it put back.
        const enabled = switched?.enabledByUs ? 'enabled ADBKeyboard and ' : '';
        const disabled = switched?.enabledByUs ? ', then disabled ADBKeyboard again' : '';
        how = switched
          ? ` via ADBKeyboard (${enabled}switched the keyboard from ${switched.previous} to ADBKeyboard ` +
            `for the typing, and back${disabled})`
          : ' via ADBKeyboard';
      }
      const checked = args.verify ? await readBack(device, args.text, ctx.signal, typingInDump) : '';
      if (args.pressEnter) {
        const pressed = await device.run('input keyevent KEYCODE_ENTER', { readState: true });
        requireInput(pressed, device.serial, '`input keyevent`');
      }
      return success(
        `Typed ${[...args.text].length} character(s)${how}${args.pressEnter ? ' and pressed Enter' : ''} ` +
          `on ${device.serial}.${checked}`,
      );
    },
  });
}
