/** browser_input: put text into a text field by ref (replace or type key by key), optionally press Enter. */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type BrowserToolDeps, defineElementTool } from '../define-browser-tool';
import { type ControlKind, controlKind } from '../page-scripts';
import { describeRef } from '../snapshot/refs';
import { refField, whereNow } from './common';

const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
const DATE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week']);

/** Why this control cannot take typed text, with the tool that handles it; undefined when it can. */
function refusal(kind: ControlKind): string | undefined {
  if (kind.disabled) return 'it is disabled';
  if (kind.readOnly) return 'it is read-only';
  if (kind.editable || kind.tag === 'textarea' || (kind.tag === 'input' && TEXT_TYPES.has(kind.type))) return undefined;
  if (kind.tag === 'input' && DATE_TYPES.has(kind.type)) return `it is a ${kind.type} field: use browser_date_input`;
  if (kind.tag === 'input' && ['checkbox', 'radio'].includes(kind.type))
    return `it is a ${kind.type}: use browser_toggle`;
  if (kind.tag === 'input' && kind.type === 'file') return 'it is a file input: use browser_file_upload';
  if (kind.tag === 'select') return 'it is a dropdown: use browser_select';
  return `it is a <${kind.tag}${kind.type ? ` type=${kind.type}` : ''}>, not a text field`;
}

const input = z.object({
  ref: refField,
  text: z.string().max(100_000),
  mode: z.enum(['fill', 'type']).default('fill').describe('type: key by key, for autocomplete and masks.'),
  submit: z.boolean().default(false).describe('Press Enter after.'),
});

export function browserInput(deps: BrowserToolDeps) {
  return defineElementTool(deps, {
    id: 'browser_input',
    title: 'Type into a field',
    description:
      'Enters text into a field by ref. For date fields use browser_date_input, for <select> browser_select.',
    input,
    metadata: { category: 'browser', risk: 'MEDIUM', tags: ['browser', 'web', 'input'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    async run({ args, page, ref, target, timeout }) {
      const kind = await target.evaluate(controlKind, undefined, { timeout });
      const why = refusal(kind);
      if (why) {
        throw new ToolCallError('INVALID_ARGUMENT', `${describeRef(page, ref)} cannot take typed text: ${why}.`, {
          hint: 'Pick a textbox/searchbox ref from browser_snapshot, or use the tool named in the message.',
          data: { fields: ['ref'] },
        });
      }
      if (args.mode === 'fill') await target.fill(args.text, { timeout });
      else {
        // Typing goes where the caret is; put it after the existing content, as the description promises.
        await target.focus({ timeout });
        await target.press(kind.tag === 'input' ? 'End' : 'Control+End', { timeout });
        await target.pressSequentially(args.text, { timeout });
      }
      if (args.submit) await target.press('Enter', { timeout });
      const value = await target.inputValue({ timeout: 1000 }).catch(() => undefined);
      // A password field's content is never echoed back, only whether it is set.
      const shown =
        value === undefined
          ? ''
          : kind.type === 'password'
            ? ` It now holds ${value ? `a password of ${[...value].length} characters` : 'nothing'}.`
            : ` It now holds ${JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)}.`;
      const what = `${args.mode === 'fill' ? 'Filled' : 'Typed into'} ${describeRef(page, ref)}.${shown}`;
      return success(`${what}${args.submit ? ` Pressed Enter. ${await whereNow(page)}` : ''}`);
    },
  });
}
