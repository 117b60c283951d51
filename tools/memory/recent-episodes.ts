/**
 * memory_recent_episodes: the latest agent sessions as stories (tools, outcomes, approvals, memories), without argument
 * text.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../core/result';
import { defineTool } from '../core/tool';
import { type EpisodeCall, type EpisodeSource, buildEpisodes } from './episodes';
import type { MemoryNodes } from './memory-nodes';

/** A call in an episode's list: its tool, marked with how it failed when it did. */
const toolStep = (t: EpisodeCall): string =>
  `${t.tool}${t.outcome === 'success' ? '' : `✗${t.errorCode ?? t.outcome}`}`;

export function recentEpisodesTool(source: EpisodeSource, nodes: MemoryNodes) {
  return defineTool({
    id: 'memory_recent_episodes',
    title: 'Recent episodes',
    description:
      'Recalls recent agent sessions, newest first: client, times, the tools called and how each ended, approvals, ' +
      'memories written (never arguments).',
    input: z.object({
      limit: z.number().int().min(1).max(20).default(5),
      since: z.string().max(40).optional().describe('ISO 8601.'),
    }),
    metadata: { category: 'cognitive_memory', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    run(args) {
      const since = args.since === undefined ? undefined : Date.parse(args.since);
      if (since !== undefined && Number.isNaN(since)) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `Invalid arguments: since ${JSON.stringify(args.since)} is not an ISO 8601 time.`,
          {
            hint: 'Give a time like "2025-06-01T09:00:00Z", or omit since.',
            data: { fields: ['since'] },
          },
        );
      }
      const episodes = buildEpisodes(source, {
        limit: args.limit,
        ...(since !== undefined ? { since } : {}),
        memorized: (sessions) => nodes.writtenBy(sessions),
      });
      const text =
        episodes.length === 0
          ? 'No agent sessions in the traces yet.'
          : episodes
              .map(
                (e) =>
                  `${e.session} (${e.client}) ${e.start} → ${e.end}: ${e.calls} ` +
                  `call(s) ${e.tools.map(toolStep).join(' → ')}; ` +
                  `approvals ${e.approvals.approved}/${e.approvals.asked}; memorized ${e.memorized.length}`,
              )
              .join('\n');
      return success(text, { count: episodes.length, episodes });
    },
  });
}
