/**
 * memory_recall_macro: the macro skills that fit a goal, ranked: defined shortcuts, the tools of
 * installed skills (and skills as prompts), and tool sequences mined from the traces, each with
 * how to call it. Ranking is BM25 over their words (name, description, the tools they call),
 * SQLite FTS5 with stemming; no embeddings, so a goal is matched by the words it shares.
 */
import { z } from 'zod';
import { bm25Rank } from '../common/bm25-rank';
import { success } from '../core/result';
import { defineTool } from '../core/tool';

export type MacroKind = 'shortcut' | 'skill' | 'sequence';

export interface MacroCandidate {
  kind: MacroKind;
  /** Unique among candidates, e.g. the tool id. */
  id: string;
  title: string;
  description: string;
  /** More words to match: the tools it calls and what they do. */
  text: string;
  /** How to call it: a tool with example arguments, or a prompt. */
  call: { tool: string; args?: Record<string, unknown> } | { prompt: string; resource?: string };
  steps?: string[];
  /** For mined sequences: how often it was seen. */
  seen?: number;
}

export type MacroSource = () => readonly MacroCandidate[];

const WEIGHTS = [2, 2, 1];

export function recallMacroTool(source: MacroSource) {
  return defineTool({
    id: 'memory_recall_macro',
    title: 'Recall macros',
    description:
      'Finds the shortcuts, skills and repeated tool sequences that fit a goal, with how to call each. Say the ' +
      'goal in the words of the task.',
    input: z.object({
      goal: z.string().trim().min(1).max(1000).describe('e.g. "open the app, take a screenshot".'),
      kinds: z
        .array(z.enum(['shortcut', 'skill', 'sequence']))
        .max(3)
        .optional()
        .describe('All three if omitted.'),
      limit: z.number().int().min(1).max(20).default(5),
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
      const kinds = new Set(args.kinds ?? ['shortcut', 'skill', 'sequence']);
      const candidates = source().filter((c) => kinds.has(c.kind));
      const byId = new Map(candidates.map((c) => [c.id, c]));
      const ranked = bm25Rank(
        candidates.map((c) => ({ id: c.id, fields: [c.title, c.description, c.text] })),
        args.goal,
        WEIGHTS,
      ).slice(0, args.limit);
      const macros = ranked.flatMap(({ id, score }) => {
        const c = byId.get(id);
        return c
          ? [
              {
                kind: c.kind,
                id: c.id,
                title: c.title,
                description: c.description,
                score,
                call: c.call,
                ...(c.steps ? { steps: c.steps } : {}),
                ...(c.seen !== undefined ? { seen: c.seen } : {}),
              },
            ]
          : [];
      });
      const text =
        macros.length === 0
          ? `No shortcut, skill or repeated sequence shares words with "${args.goal}" (of ${candidates.length} ` +
            'known). shortcut_list and skill_search list what exists.'
          : macros
              .map((m) => `${m.kind} ${m.title} (score ${m.score}): ${m.description} — call ${JSON.stringify(m.call)}`)
              .join('\n');
      return success(text, {
        goal: args.goal,
        ranking: 'bm25 word matching, no embeddings',
        count: macros.length,
        macros,
      });
    },
  });
}
