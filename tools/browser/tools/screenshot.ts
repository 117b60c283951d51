/** browser_screenshot: an image of the viewport, the full page, or one element. */
import { z } from 'zod';
import { imageSuccess } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { describeRef, resolveRefTarget } from '../snapshot/refs';
import { refField } from './common';

const input = z.object({
  ref: refField
    .optional()
    .describe('Capture only this element (ref from the latest browser_snapshot). Omit for the page.'),
  fullPage: z
    .boolean()
    .default(false)
    .describe('Capture the whole scrollable page instead of the visible viewport (ignored with "ref").'),
  format: z.enum(['png', 'jpeg']).default('jpeg').describe('Image format; jpeg (default) is smaller, png is lossless.'),
  quality: z.number().int().min(10).max(100).default(70).describe('JPEG quality 10-100 (default 70).'),
});

export function browserScreenshot(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_screenshot',
    title: 'Screenshot the page',
    description:
      'Returns an image of the active tab: the visible viewport (default), the full scrollable page, or a single element by ref. Use browser_snapshot instead to read text and find elements; use this to check layout or visuals.',
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
      'The screenshot did not finish; the page may be busy or enormous. Retry without fullPage, or capture one element by ref.',
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
