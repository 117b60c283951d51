/** browser_network_log: recent requests of the browser session, filterable. */
import { z } from 'zod';
import { success } from '../../core/result';
import { defineTool } from '../../core/tool';
import type { BrowserToolDeps } from '../define-browser-tool';
import type { NetworkEntry } from '../network-log';

const input = z.object({
  urlContains: z.string().min(1).optional().describe('Only requests whose URL contains this text (case-insensitive).'),
  status: z
    .union([z.number().int().min(100).max(599), z.enum(['2xx', '3xx', '4xx', '5xx', 'failed', 'pending'])])
    .optional()
    .describe(
      'Only this HTTP status (e.g. 404), a status class ("4xx"), requests that failed without a response ("failed"), or those still running ("pending").',
    ),
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
    .optional()
    .describe('Only this kind of resource; "fetch" and "xhr" are API calls.'),
  limit: z.number().int().min(1).max(500).default(50).describe('At most this many, the newest (default 50).'),
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
    description:
      'Lists recent requests made by the browser (all tabs; the newest last): method, URL, HTTP status or failure, duration, resource type. Filter by URL text, status or status class, or resource type, e.g. {"status": "4xx"} or {"resourceType": "fetch", "urlContains": "/api/"}. The log keeps the last 500 requests.',
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
