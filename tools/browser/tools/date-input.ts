/**
 * browser_date_input: date, time, datetime-local, month and week inputs get a value in the format the
 * browser requires (validated here, with the expected format in the error); a text field behind a
 * date-picker widget gets the text typed and Enter pressed.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type BrowserToolDeps, defineElementTool } from '../define-browser-tool';
import { controlKind } from '../page-scripts';
import { describeRef } from '../snapshot/refs';
import { refField } from './common';

type NativeKind = 'date' | 'time' | 'datetime-local' | 'month' | 'week';

const FORMATS: Record<NativeKind, { pattern: RegExp; shape: string; example: string }> = {
  date: { pattern: /^(\d{4})-(\d{2})-(\d{2})$/, shape: 'YYYY-MM-DD', example: '2024-03-15' },
  time: {
    pattern: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/,
    shape: 'HH:MM or HH:MM:SS (24-hour)',
    example: '14:30',
  },
  'datetime-local': {
    pattern: /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/,
    shape: 'YYYY-MM-DDTHH:MM',
    example: '2024-03-15T14:30',
  },
  month: { pattern: /^(\d{4})-(0[1-9]|1[0-2])$/, shape: 'YYYY-MM', example: '2024-03' },
  week: { pattern: /^(\d{4})-W(0[1-9]|[1-4]\d|5[0-3])$/, shape: 'YYYY-Www', example: '2024-W11' },
};

/** True when year-month-day names a real calendar day (no 2023-02-29). */
function realDay(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The value in the browser's format, or an INVALID_ARGUMENT that shows the format expected. */
export function checkDateValue(kind: NativeKind, raw: string): string {
  const value = kind === 'datetime-local' ? raw.trim().replace(' ', 'T') : raw.trim();
  const format = FORMATS[kind];
  const match = format.pattern.exec(value);
  const dated = kind === 'date' || kind === 'datetime-local';
  if (!match || (dated && !realDay(Number(match[1]), Number(match[2]), Number(match[3])))) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `"${raw}" is not a valid ${kind} value; this field needs ${format.shape}, e.g. ${format.example}.`,
      {
        hint: `Reformat the value as ${format.shape} and retry.`,
        data: { fields: ['value'], expected: format.shape },
      },
    );
  }
  return value;
}

const input = z.object({
  ref: refField,
  value: z.string().min(1).max(64).describe('YYYY-MM-DD, HH:MM, YYYY-MM… or as the picker shows it.'),
});

const TEXTLIKE = new Set(['text', 'search', 'tel', '']);

export function browserDateInput(deps: BrowserToolDeps) {
  return defineElementTool(deps, {
    id: 'browser_date_input',
    title: 'Set a date or time field',
    description: "Sets a date, time, month or week field, or a date picker's text field, and reports its value.",
    input,
    metadata: { category: 'browser', risk: 'MEDIUM', tags: ['browser', 'web', 'input'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    async run({ args, page, ref, target, timeout }) {
      const kind = await target.evaluate(controlKind, undefined, { timeout });
      const name = describeRef(page, ref);
      if (kind.disabled)
        throw new ToolCallError('EXECUTION_FAILED', `${name} is disabled.`, {
          hint: 'Something else on the page must enable it first; take a browser_snapshot.',
        });
      if (kind.tag === 'input' && kind.type in FORMATS) {
        const value = checkDateValue(kind.type as NativeKind, args.value);
        await target.fill(value, { timeout });
        const now = await target.inputValue({ timeout });
        if (now !== value) {
          throw new ToolCallError(
            'EXECUTION_FAILED',
            `${name} did not keep ${JSON.stringify(value)}; it ` +
              `holds ${JSON.stringify(now)} (outside its min/max/step?).`,
            { hint: 'Choose a value the field allows; browser_context_summary shows the field.' },
          );
        }
        return success(`Set ${name} (${kind.type}) to ${value}.`, { value });
      }
      const textField = (kind.tag === 'input' && TEXTLIKE.has(kind.type)) || kind.tag === 'textarea';
      if (!textField) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `${name} is not a date/time field or a text field (it is a ` +
            `<${kind.tag}${kind.type ? ` type=${kind.type}` : ''}>).`,
          {
            hint:
              'Pick the date field itself from browser_snapshot; for a calendar made of buttons, use ' +
              'browser_click on the days.',
            data: { fields: ['ref'] },
          },
        );
      }
      if (!/\d/.test(args.value))
        throw new ToolCallError('INVALID_ARGUMENT', `"${args.value}" does not look like a date or time (no digits).`, {
          data: { fields: ['value'] },
        });
      if (kind.readOnly) {
        throw new ToolCallError('UNSUPPORTED', `${name} is read-only: its date picker only takes clicks.`, {
          hint: 'browser_click the field to open the calendar, take a browser_snapshot, and click the day.',
        });
      }
      await target.click({ timeout });
      await target.fill('', { timeout });
      await target.pressSequentially(args.value, { timeout });
      await target.press('Enter', { timeout });
      const now = await target.inputValue({ timeout: 1000 }).catch(() => '');
      return success(
        `Typed ${JSON.stringify(args.value)} into the picker field ${name} and pressed Enter; it now ` +
          `shows ${JSON.stringify(now)}.`,
        { value: now },
      );
    },
  });
}
