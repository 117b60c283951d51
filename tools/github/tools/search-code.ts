/** github_search_code: GitHub code search (its own syntax and rate limit), bounded, with the matched fragments. */
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import { type ClientSource, READ_DECLARATION } from '../common';
import { githubFailure } from '../errors';

const MAX_RESULTS = 100;

interface CodeHit {
  name: string;
  path: string;
  sha: string;
  html_url: string;
  repository: { full_name: string };
  score: number;
  text_matches?: Array<{ fragment?: string }>;
}

export function githubSearchCodeTool(client: ClientSource) {
  return defineTool({
    id: 'github_search_code',
    title: 'Search GitHub code',
    description:
      'Searches code on GitHub with its search syntax, e.g. "addClass repo:jquery/jquery" or "useState language:typescript org:facebook". Returns repository, path, sha and the matched fragments, best match first. Code search has its own rate limit (about 10 searches a minute).',
    input: z.object({
      query: z
        .string()
        .trim()
        .min(1)
        .max(256)
        .describe('GitHub code search query, with qualifiers such as repo:, org:, language:, path:.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_RESULTS)
        .default(20)
        .describe(`Most results to return (default 20, at most ${MAX_RESULTS}).`),
    }),
    ...READ_DECLARATION,
    async run(args, ctx) {
      try {
        const { data } = await client().rest.search.code({
          q: args.query,
          per_page: args.limit,
          headers: { accept: 'application/vnd.github.text-match+json' },
          request: { signal: ctx.signal },
        });
        const items = data.items as CodeHit[];
        return jsonSuccess({
          totalCount: data.total_count,
          incomplete: data.incomplete_results,
          count: Math.min(items.length, args.limit),
          results: items.slice(0, args.limit).map((i) => ({
            repository: i.repository.full_name,
            path: i.path,
            name: i.name,
            sha: i.sha,
            htmlUrl: i.html_url,
            fragments: (i.text_matches ?? []).flatMap((m) => (m.fragment ? [m.fragment] : [])),
          })),
        });
      } catch (e) {
        throw githubFailure(e, { what: `the code search "${args.query}"`, fields: { q: 'query' } });
      }
    },
  });
}
