/**
 * input_text: types into the focused field. Printable ASCII goes through `input text`; anything
 * else (accents, emoji, CJK, newlines, a literal `%s`) needs ADBKeyboard, whose broadcast only
 * types while it is the selected input method — `am broadcast` says "completed" whether or not
 * anything arrived. So the tool checks `settings get secure default_input_method`, selects
 * ADBKeyboard with `ime set` when it is installed (and switches back afterwards, saying so), and
 * reads the focused field back from a fresh UI dump to check that the text arrived. The switch back
 * runs whatever ended the typing — a failure, a cancel, the call's timeout — on a deadline of its
 * own, and is reported as done only when the phone said so. Long text goes
 * in chunks, each its own command within the call's time; the last `input text` and the dump that
 * checks it share one shell line (one round trip to the phone).
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { firstLines } from './arguments';
import { type DeviceCall, defineDeviceTool } from './device-tool';
import { keyboards, planSwitch, restoreKeyboard, selectAdbKeyboard, withRestoreNote } from './adb-keyboard';
import { requireInput } from './refusals';
import { type BeforeDump, readUiDump } from './ui-dump-reader';

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
    // Room for one whole try on a real phone: uiautomator's start and up to 10 s of waiting for idle.
    read = await readUiDump(device, { budgetMs: 15_000, signal, treeOnly: true, ...(before ? { before } : {}) });
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
      /** What the switch back could not undo, for the answer. */
      let notRestored = '';
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
        const plan = planSwitch(device, kb, args.switchKeyboard);
        // From the first `ime` command on, the switch back runs however the typing ends.
        try {
          if (plan) await selectAdbKeyboard(device, plan);
          await broadcast(device, args.text);
        } catch (e) {
          throw plan ? withRestoreNote(e, await restoreKeyboard(device, plan)) : e;
        }
        const restored = plan ? await restoreKeyboard(device, plan) : undefined;
        // Say every setting the tool changed on the person's phone, even the ones it put back.
        const enabled = plan?.enabledByUs ? 'enabled ADBKeyboard and ' : '';
        const disabled = restored?.disabled ? ', then disabled ADBKeyboard again' : '';
        how =
          plan && restored
            ? ` via ADBKeyboard (${enabled}switched the keyboard from ${plan.previous} to ADBKeyboard ` +
              `for the typing${restored.back ? `, and back${disabled}` : ''})`
            : ' via ADBKeyboard';
        notRestored = restored?.note ?? '';
      }
      const checked = args.verify ? await readBack(device, args.text, ctx.signal, typingInDump) : '';
      if (args.pressEnter) {
        const pressed = await device.run('input keyevent KEYCODE_ENTER', { readState: true });
        requireInput(pressed, device.serial, '`input keyevent`');
      }
      return success(
        `Typed ${[...args.text].length} character(s)${how}${args.pressEnter ? ' and pressed Enter' : ''} ` +
          `on ${device.serial}.${notRestored}${checked}`,
      );
    },
  });
}
