/** browser_show: bring the mirrored browser view forward in the host UI, optionally switching tabs first. */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';

const input = z.object({
  tab: z.number().int().min(1).optional().describe('1-based, as browser_context_summary lists tabs.'),
  reason: z.string().max(200).optional().describe('A note for the person.'),
});

export function browserShow(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_show',
    title: 'Show the browser to the user',
    description: "Shows the live browser to the person in Toolgate's window, to watch or review a page.",
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web', 'ui'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    target: (args) => (args.tab ? `tab ${args.tab}` : 'active tab'),
    async run({ args, page, deps: d }) {
      let shown = page;
      if (args.tab !== undefined) {
        const count = d.manager.tabSummary().count;
        const selected = await d.manager.selectTab(args.tab - 1);
        if (!selected)
          throw new ToolCallError(
            'NOT_FOUND',
            `There is no tab ${args.tab}; ${count} tab${count === 1 ? ' is' : 's are'} open.`,
            { hint: 'Call browser_context_summary to list the tabs.', data: { fields: ['tab'] } },
          );
        shown = selected;
      }
      const info = {
        url: shown.url(),
        title: await shown.title().catch(() => ''),
        tabIndex: d.manager.tabSummary().activeIndex,
        at: d.manager.now(),
        ...(args.reason ? { reason: args.reason } : {}),
      };
      const where = `tab ${info.tabIndex + 1} (${info.title ? `${JSON.stringify(info.title)} ` : ''}${info.url})`;
      if (!d.onShow)
        return success(`Active: ${where}. No viewer is attached to this host, so nothing was brought forward.`, {
          shown: false,
          ...info,
        });
      d.onShow(info);
      return success(`Showing ${where} to the user.`, { shown: true, ...info });
    },
  });
}
