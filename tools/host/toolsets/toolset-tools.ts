/**
 * Dynamic toolsets: three small tools, always on in every MCP session, with which a model that
 * needs more tools mid-task turns their toolset on instead of carrying every tool from the start.
 * After a change the endpoint sends `notifications/tools/list_changed`.
 */
import { z } from 'zod';
import { publishedName } from '../../core/published-name';
import type { ToolRegistry } from '../../core/registry';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import { formatBytes, toolsetBytes } from './listing-bytes';
import type { SessionToolsets, ToolsetView } from './session-toolsets';

const TOOLSET_NAME = z.string().min(1).max(32).describe('e.g. "browser".');

const READS = {
  metadata: { category: 'orchestration', risk: 'LOW' },
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
    sensitiveAction: false,
  },
  runPolicy: 'quickRead',
} as const;

function line(registry: ToolRegistry, v: ToolsetView): string {
  const size = formatBytes(toolsetBytes(registry, v.name));
  return `${v.name} (${v.status}; ${v.tools.length} tools, ${size}): ${v.summary}`;
}

/** The first sentence of a description: enough to choose a toolset by. */
function firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

export function toolsetTools(registry: ToolRegistry, sessions: SessionToolsets): Tool[] {
  const list = defineTool({
    id: 'toolset_list',
    title: 'List toolsets',
    description: 'Lists the toolsets: on or off here, size, what they do.',
    input: z.object({}),
    ...READS,
    run: (_args, ctx) => {
      const views = sessions.view(ctx.sessionId);
      const on = views.filter((v) => v.status === 'on').map((v) => v.name);
      return success(
        [`${views.length} toolsets; on: ${on.join(', ')}.`, ...views.map((v) => line(registry, v))].join('\n'),
      );
    },
  });

  const describe = defineTool({
    id: 'toolset_describe',
    title: 'Describe a toolset',
    description: "Lists a toolset's tools, a line each.",
    input: z.object({ toolset: TOOLSET_NAME }),
    ...READS,
    run: (args, ctx) => {
      const view = sessions.view(ctx.sessionId).find((v) => v.name === args.toolset);
      if (!view) return sessions.unknownToolset(args.toolset);
      const tools = registry.toolsOf(view.name).map((t) => `${publishedName(t.id)}: ${firstSentence(t.description)}`);
      return success([line(registry, view), ...tools].join('\n'));
    },
  });

  const enable = defineTool({
    id: 'toolset_enable',
    title: 'Turn a toolset on or off',
    description: 'Turns a toolset on or off in this session; the tool list changes.',
    input: z.object({ toolset: TOOLSET_NAME, enabled: z.boolean().default(true) }),
    metadata: { category: 'orchestration', risk: 'LOW' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    run: (args, ctx) => {
      const outcome = sessions.toggle(ctx.sessionId, args.toolset, args.enabled);
      if (!outcome.ok) return outcome.result;
      const state = outcome.on ? 'on' : 'off';
      const head = outcome.changed
        ? `Toolset '${outcome.name}' is ${state}; the tool list changed.`
        : `Toolset '${outcome.name}' was already ${state}.`;
      return success(outcome.on ? `${head}\nIts tools: ${outcome.tools.join(', ')}.` : head);
    },
  });

  return [list, describe, enable] as Tool[];
}
