/** browser_snapshot: the page as a compact accessibility tree with element refs. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { captureAriaJson } from '../snapshot/aria-json';
import { renderCompact } from '../snapshot/compact-render';
import { rememberRefs } from '../snapshot/refs';

const input = z.object({
  maxChars: z.number().int().min(2_000).max(1_000_000).default(200_000),
});

export function browserSnapshot(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_snapshot',
    title: 'Read the page',
    description:
      'The active tab as a compact accessibility tree, iframes ' +
      'included: `e12 button "Save"`, `e5 textbox "Email" = "a@b.c"`. ' +
      'Refs (e12, f1e3) expire when the page changes.',
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    target: () => 'page',
    timeoutHint: 'The page did not produce a snapshot in time; it may still be loading. Wait a moment and retry once.',
    async run({ page, args, deps: d }) {
      const tree = await captureAriaJson(page, Math.max(d.manager.actionTimeoutMs, 15_000));
      const title = await page.title().catch(() => '');
      const compact = renderCompact(tree, args.maxChars);
      rememberRefs(page, compact.refs);
      const tabs = d.manager.tabSummary();
      const tabNote = tabs.count > 1 ? ` [tab ${tabs.activeIndex + 1} of ${tabs.count}]` : '';
      const header = `Page: ${title ? `${JSON.stringify(title)} ` : ''}${page.url()}${tabNote}`;
      const tail = compact.truncated
        ? `\n… snapshot cut at ${args.maxChars} characters; scroll or raise maxChars to see the rest.`
        : '';
      return success(`${header}\n${compact.text}${tail}`);
    },
  });
}
