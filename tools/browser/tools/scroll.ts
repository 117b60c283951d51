/** browser_scroll: scroll the page or a scrollable element, or bring an element into view. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { SCROLL_STATE, type ScrollMove, type ScrollState, scrollElement, scrollWindow } from '../page-scripts';
import { describeRef, resolveRefTarget } from '../snapshot/refs';
import { refField } from './common';

const input = z.object({
  direction: z
    .enum(['up', 'down', 'left', 'right', 'top', 'bottom'])
    .optional()
    .describe('Omit to bring ref into view.'),
  amount: z.number().int().min(1).max(100_000).optional().describe('Pixels; about one screen if omitted.'),
  ref: refField.optional().describe('Scroll inside it.'),
});

function describeState(s: ScrollState): string {
  const where =
    s.maxY <= 0
      ? 'nothing to scroll vertically'
      : s.y <= 0
        ? 'at the top'
        : s.y >= s.maxY - 1
          ? 'at the bottom'
          : `${Math.round((s.y / s.maxY) * 100)}% down`;
  return (
    `Scroll position ${Math.round(s.x)},${Math.round(s.y)} ` +
    `of ${Math.round(s.maxX)},${Math.round(s.maxY)} (${where}).`
  );
}

export function browserScroll(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_scroll',
    title: 'Scroll',
    description: 'Scrolls the page or an element, or brings an element into view, and gives the new position.',
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    target: (args) => args.ref ?? args.direction ?? '',
    async run({ args, page, deps: d }) {
      const timeout = d.manager.actionTimeoutMs;
      const direction = args.direction ?? (args.ref ? undefined : 'down');
      if (args.ref !== undefined && direction === undefined) {
        const { ref, target } = await resolveRefTarget(page, args.ref);
        await target.scrollIntoViewIfNeeded({ timeout });
        const state = (await page.evaluate(SCROLL_STATE)) as ScrollState;
        return success(`Scrolled ${describeRef(page, ref)} into view. ${describeState(state)}`);
      }
      const move: ScrollMove = { direction: direction ?? 'down', amount: args.amount ?? null };
      if (args.ref !== undefined) {
        const { ref, target } = await resolveRefTarget(page, args.ref);
        const state = await target.evaluate(scrollElement, move, { timeout });
        return success(`Scrolled ${describeRef(page, ref)} ${move.direction}. ${describeState(state)}`);
      }
      const state = await page.evaluate(scrollWindow, move);
      return success(`Scrolled the page ${move.direction}. ${describeState(state)}`);
    },
  });
}
