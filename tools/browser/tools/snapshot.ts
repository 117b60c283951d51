/** browser_snapshot: the page as a compact accessibility tree with element refs. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { captureAriaJson } from '../snapshot/aria-json';
import { renderCompact } from '../snapshot/compact-render';
import { rememberRefs } from '../snapshot/refs';

const input = z.object({
  maxChars: z
    .number()
    .int()
    .min(2_000)
    .max(1_000_000)
    .default(200_000)
    .describe(
      'Cut the snapshot after this many characters (default 200000); the end of a very long page is then left out.',
    ),
});

export function browserSnapshot(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_snapshot',
    title: 'Read the page',
    description: [
      'Returns the active tab as a compact accessibility tree, one line per meaningful element, including iframes and shadow DOM. Interactive elements carry a ref (e12, or f1e3 inside an iframe) that browser_click, browser_input, browser_select, browser_toggle, browser_date_input, browser_file_upload, browser_scroll and browser_screenshot accept. Refs belong to the latest snapshot: after the page changes, take a new one.',
      'Line forms: `e12 button "Save" disabled` (ref, role, name, states such as checked/selected/expanded/pressed/disabled/invalid/focused; a missing state means off); `e5 textbox "Email" = "a@b.c"` (current value); `e8 combobox "Size" = "M" options: S | M | L`; `e9 link "Docs" -> /docs`; `## Title` (heading level); `- text` (list item); `a | b | [e20 button "Edit"]` (table row, cells split by |, bracketed elements inline); `e3 navigation "Main":` (section, content indented below). Other lines are page text.',
    ].join('\n'),
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
