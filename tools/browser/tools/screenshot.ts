/** browser_screenshot: an image of the viewport, the full page, or one element. */
import { z } from 'zod';
import { imageSuccess } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { describeRef, resolveRefTarget } from '../snapshot/refs';
import { refField } from './common';

const input = z.object({
  ref: refField.optional().describe('Only this element.'),
  fullPage: z.boolean().default(false).describe('The whole scrollable page.'),
  format: z.enum(['png', 'jpeg']).default('jpeg'),
  quality: z.number().int().min(10).max(100).default(70).describe('Of a jpeg.'),
});

export function browserScreenshot(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_screenshot',
    title: 'Screenshot the page',
    description:
      'An image of the active tab, or of one element. To read text or find elements, browser_snapshot is cheaper.',
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web', 'image'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    runPolicy: 'quickRead',
    target: (args) => args.ref ?? (args.fullPage ? 'full page' : 'viewport'),
    timeoutHint:
      'The screenshot did not finish; the page may be busy or ' +
      'enormous. Retry without fullPage, or capture one element by ref.',
    async run({ args, page, deps: d }) {
      const timeout = Math.max(d.manager.actionTimeoutMs, 15_000);
      const options = { type: args.format, timeout, ...(args.format === 'jpeg' ? { quality: args.quality } : {}) };
      const mime = args.format === 'png' ? 'image/png' : 'image/jpeg';
      if (args.ref !== undefined) {
        const { ref, target } = await resolveRefTarget(page, args.ref);
        return imageSuccess(
          await target.screenshot(options),
          mime,
          `Screenshot of ${describeRef(page, ref)} on ${page.url()}`,
        );
      }
      const shot = await page.screenshot({ ...options, fullPage: args.fullPage });
      return imageSuccess(
        shot,
        mime,
        `Screenshot of ${args.fullPage ? 'the full page' : 'the viewport'} of ${page.url()}`,
      );
    },
  });
}
