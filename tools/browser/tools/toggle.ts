/** browser_toggle: set a checkbox, radio button or switch to the wanted state. */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type BrowserToolDeps, defineElementTool } from '../define-browser-tool';
import { errorText } from '../errors';
import { describeRef } from '../snapshot/refs';
import { refField } from './common';

const input = z.object({
  ref: refField,
  checked: z.boolean().default(true),
});

export function browserToggle(deps: BrowserToolDeps) {
  return defineElementTool(deps, {
    id: 'browser_toggle',
    title: 'Check or uncheck',
    description: 'Checks or unchecks a checkbox, radio button or switch, clicking only when needed.',
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
      let before: boolean;
      try {
        before = await target.isChecked({ timeout });
      } catch (e) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `${describeRef(page, ref)} is not a checkbox, radio button or switch (${errorText(e).split('\n')[0]}).`,
          {
            hint: 'Use browser_click for buttons and links; pick a checkbox/radio/switch ref from browser_snapshot.',
            data: { fields: ['ref'] },
          },
        );
      }
      if (before === args.checked)
        return success(
          `${describeRef(page, ref)} was already ${args.checked ? 'checked' : 'unchecked'}; nothing clicked.`,
          { checked: before, changed: false },
        );
      try {
        await target.setChecked(args.checked, { timeout });
      } catch (e) {
        if (/Cannot uncheck radio/i.test(errorText(e))) {
          throw new ToolCallError(
            'INVALID_ARGUMENT',
            `${describeRef(page, ref)} is a radio button; it cannot be unchecked directly.`,
            { hint: 'Check another radio button of the same group instead.', data: { fields: ['checked'] } },
          );
        }
        if (/did not change its state/i.test(errorText(e))) {
          throw new ToolCallError(
            'EXECUTION_FAILED',
            `Clicking ${describeRef(page, ref)} did not change its state; the page ignores or reverts the click.`,
            { hint: 'Take a browser_snapshot: the control may be disabled or controlled by another element.' },
          );
        }
        throw e;
      }
      return success(`${describeRef(page, ref)} is now ${args.checked ? 'checked' : 'unchecked'}.`, {
        checked: args.checked,
        changed: true,
      });
    },
  });
}
