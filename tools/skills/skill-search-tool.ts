/**
 * skill_search: finds skills for a task among the installed ones and the sources the user
 * configured (a workspace folder of skill folders, an https index). Ranking is BM25 over the
 * words of name, description and instructions (name weighs most), computed by SQLite FTS5: word
 * matching with stemming, no embeddings, so a query must share words with the skill.
 */
import { z } from 'zod';
import { bm25Rank } from '../common/bm25-rank';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import type { SkillCatalog } from './skill-catalog';
import { type SourceSkill, type SkillSourceConfig, listSourceSkills } from './skill-source-listing';

const WEIGHTS = [3, 2, 1];

interface Candidate {
  key: string;
  name: string;
  description: string;
  body: string;
  found: 'installed' | SourceSkill['where'];
  source?: string;
  enabled?: boolean;
}

export function skillSearchTool(catalog: SkillCatalog, sources: SkillSourceConfig) {
  return defineTool({
    id: 'skill_search',
    title: 'Search skills',
    description:
      "Finds skills for a task, installed or in the person's skill sources, with how to use or install each. Use " +
      'words the skill would use.',
    input: z.object({
      query: z.string().trim().min(1).max(500).describe('e.g. "android app smoke test".'),
      limit: z.number().int().min(1).max(50).default(10),
      includeSources: z.boolean().default(true).describe('Not only installed skills.'),
    }),
    metadata: { category: 'skills', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    async run(args, ctx) {
      const candidates: Candidate[] = catalog.list().map((s) => ({
        key: `installed:${s.name}`,
        name: s.name,
        description: s.description,
        body: s.body,
        found: 'installed',
        enabled: s.enabled,
      }));
      const listed = args.includeSources ? await listSourceSkills(sources, ctx.signal) : { skills: [], errors: [] };
      for (const [i, s] of listed.skills.entries()) {
        candidates.push({
          key: `source:${i}`,
          name: s.name,
          description: s.description,
          body: s.body,
          found: s.where,
          source: s.source,
        });
      }
      const byKey = new Map(candidates.map((c) => [c.key, c]));
      const ranked = bm25Rank(
        candidates.map((c) => ({ id: c.key, fields: [c.name, c.description, c.body] })),
        args.query,
        WEIGHTS,
      ).slice(0, args.limit);
      const results = ranked.flatMap(({ id, score }) => {
        const c = byKey.get(id);
        if (!c) return [];
        const installed = catalog.has(c.name);
        return [
          {
            name: c.name,
            description: c.description,
            found: c.found,
            installed,
            score,
            ...(c.source ? { source: c.source } : {}),
            use:
              c.found === 'installed'
                ? `Installed${c.enabled ? '' : ' (disabled)'}: read it with ` +
                  `skill_list {"name":"${c.name}"} or the prompt '${c.name}'.`
                : installed
                  ? `A skill named '${c.name}' is installed already; skill_install with replace: true would replace it.`
                  : `Install it with skill_install {"source":${JSON.stringify(c.source)}}.`,
          },
        ];
      });
      return jsonSuccess({
        query: args.query,
        ranking: 'bm25 over name, description and instructions (word matching, no embeddings)',
        count: results.length,
        results,
        ...(listed.errors.length ? { sourceErrors: listed.errors } : {}),
      });
    },
  });
}
