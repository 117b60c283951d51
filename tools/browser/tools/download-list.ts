/** browser_download_list: the downloads pages started in this browser session, and what became of each. */
import { relative } from 'node:path';
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import type { BrowserToolDeps } from '../define-browser-tool';

const input = z.object({
  state: z.enum(['in_progress', 'awaiting_approval', 'completed', 'discarded', 'failed', 'canceled']).optional(),
  waitMs: z.number().int().min(0).max(60_000).default(0).describe('For running downloads to end.'),
});

export function browserDownloadList(deps: BrowserToolDeps) {
  return defineTool({
    id: 'browser_download_list',
    title: 'List downloads',
    description: 'Lists the downloads pages started; a person approves each before it is saved in the workspace.',
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web', 'files'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    async run(args) {
      await deps.manager.downloads.waitForSettled(args.waitMs);
      const list = deps.manager.downloads
        .list()
        .filter((d) => args.state === undefined || d.state === args.state)
        .map((d) => ({
          file: d.suggestedFilename,
          path: d.path ? relative(deps.workspaceRoot, d.path).split('\\').join('/') : null,
          state: d.state,
          sizeBytes: d.sizeBytes ?? null,
          url: d.url,
          ...(d.error ? { error: d.error } : {}),
        }));
      return jsonSuccess({ downloads: list, inProgress: deps.manager.downloads.inProgress });
    },
  });
}
