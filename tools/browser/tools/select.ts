/** browser_select: choose options of a <select> by value or visible label. */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type BrowserToolDeps, defineElementTool } from '../define-browser-tool';
import { selectOptions } from '../page-scripts';
import { describeRef } from '../snapshot/refs';
import { refField } from './common';

const input = z.object({
  ref: refField,
  values: z.array(z.string()).min(1).max(100).describe('Values or labels.'),
});

export function browserSelect(deps: BrowserToolDeps) {
  return defineElementTool(deps, {
    id: 'browser_select',
    title: 'Choose from a dropdown',
    description: 'Selects options of a native <select>; a dropdown made of divs is clicked open instead.',
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
      const state = await target.evaluate(selectOptions, undefined, { timeout });
      if (!state) {
        throw new ToolCallError('UNSUPPORTED', `${describeRef(page, ref)} is not a native <select>.`, {
          hint:
            'For a custom dropdown: browser_click it to open, browser_snapshot to see the options, then ' +
            'browser_click the option.',
        });
      }
      const available = state.options.filter((o) => !o.disabled);
      const missing = args.values.filter((v) => !available.some((o) => o.value === v || o.label === v));
      if (missing.length > 0) {
        const listed = available
          .slice(0, 30)
          .map((o) =>
            o.label === o.value
              ? JSON.stringify(o.label)
              : `${JSON.stringify(o.label)} (value ${JSON.stringify(o.value)})`,
          );
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `No enabled option matches ${missing.map((m) => JSON.stringify(m)).join(', ')}. ` +
            `Options: ${listed.join(', ')}${available.length > 30 ? ', …' : ''}.`,
          {
            hint: 'Use one of the listed labels or values exactly.',
            data: { fields: ['values'] },
          },
        );
      }
      if (args.values.length > 1 && !state.multiple) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `${describeRef(page, ref)} allows only one choice; got ${args.values.length}.`,
          { data: { fields: ['values'] } },
        );
      }
      const chosen = await target.selectOption(args.values, { timeout });
      const labels = chosen.map((v) => state.options.find((o) => o.value === v)?.label ?? v);
      return success(`Selected ${labels.map((l) => JSON.stringify(l)).join(', ')} in ${describeRef(page, ref)}.`, {
        selected: chosen,
      });
    },
  });
}
