/** browser_network_log: recent requests of the browser session, filterable. */
import { z } from 'zod';
import { success } from '../../core/result';
import { defineTool } from '../../core/tool';
import type { BrowserToolDeps } from '../define-browser-tool';
import type { NetworkEntry } from '../network-log';

const input = z.object({
  urlContains: z.string().min(1).optional(),
  status: z
    .union([z.number().int().min(100).max(599), z.enum(['2xx', '3xx', '4xx', '5xx', 'failed', 'pending'])])
    .optional()
    .describe('e.g. 404 or "4xx".'),
  resourceType: z
    .enum([
      'document',
      'stylesheet',
      'image',
      'media',
      'font',
      'script',
      'texttrack',
      'xhr',
      'fetch',
      'eventsource',
      'websocket',
      'manifest',
      'other',
    ])
    .optional(),
  limit: z.number().int().min(1).max(500).default(50),
});

function line(e: NetworkEntry): string {
  const pending =
    e.state === 'pending' ? (e.status === undefined ? 'pending' : `${e.status} (body still loading)`) : undefined;
  const outcome = e.state === 'failed' ? `FAILED ${e.failure ?? ''}`.trim() : (pending ?? String(e.status ?? '-'));
  const time = e.durationMs !== undefined ? ` ${e.durationMs}ms` : '';
  return `${e.method} ${e.url} → ${outcome}${time} [${e.resourceType}]`;
}

export function browserNetworkLog(deps: BrowserToolDeps) {
  return defineTool({
    id: 'browser_network_log',
    title: 'Recent network requests',
    description: "Lists the browser's recent requests, newest last: method, URL, status, duration, type.",
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web', 'debug'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    run(args) {
      const entries = deps.manager.network.entries({
        ...(args.urlContains !== undefined ? { urlContains: args.urlContains } : {}),
        ...(args.status !== undefined ? { status: args.status } : {}),
        ...(args.resourceType !== undefined ? { resourceType: args.resourceType } : {}),
        limit: args.limit,
      });
      const head =
        entries.length === 0
          ? 'No matching requests recorded.'
          : `${entries.length} request${entries.length === 1 ? '' : 's'} (oldest first):`;
      return success([head, ...entries.map(line)].join('\n'), { requests: entries });
    },
  });
}
