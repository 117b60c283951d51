/** github_list_issues: a repository's issues (pull requests left out unless asked), newest first, bounded. */
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import { type ClientSource, READ_DECLARATION, collect, limit, owner, repo } from '../common';
import { githubFailure } from '../errors';

interface IssueLike {
  number: number;
  title: string;
  state: string;
  user: { login: string } | null;
  labels: Array<string | { name?: string }>;
  comments: number;
  created_at: string;
  updated_at: string;
  html_url: string;
  pull_request?: unknown;
  body?: string | null;
}

const BODY_CHARS = 500;

export function githubListIssuesTool(client: ClientSource) {
  return defineTool({
    id: 'github_list_issues',
    title: 'GitHub issues',
    description:
      "Lists a repository's issues, newest first, with the " +
      'start of each body; "more" says there were more than limit.',
    input: z.object({
      owner,
      repo,
      state: z.enum(['open', 'closed', 'all']).default('open'),
      labels: z.array(z.string().min(1).max(50)).max(10).optional().describe('Only issues with all of these.'),
      includePullRequests: z.boolean().default(false),
      limit: limit(),
    }),
    ...READ_DECLARATION,
    async run(args, ctx) {
      const octokit = client();
      try {
        const pages = octokit.paginate.iterator(octokit.rest.issues.listForRepo, {
          owner: args.owner,
          repo: args.repo,
          state: args.state,
          ...(args.labels ? { labels: args.labels.join(',') } : {}),
          per_page: Math.min(100, args.limit),
          request: { signal: ctx.signal },
        });
        const wanted = async function* () {
          for await (const page of pages as AsyncIterable<{ data: IssueLike[] }>)
            yield { data: page.data.filter((i) => args.includePullRequests || i.pull_request === undefined) };
        };
        const { items, more } = await collect(wanted(), args.limit);
        return jsonSuccess({
          count: items.length,
          more,
          issues: items.map((i) => ({
            number: i.number,
            title: i.title,
            state: i.state,
            author: i.user?.login ?? null,
            labels: i.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))),
            comments: i.comments,
            pullRequest: i.pull_request !== undefined,
            createdAt: i.created_at,
            updatedAt: i.updated_at,
            htmlUrl: i.html_url,
            bodyStart: i.body ? i.body.slice(0, BODY_CHARS) : null,
          })),
        });
      } catch (e) {
        throw githubFailure(e, { what: `issues of ${args.owner}/${args.repo}` });
      }
    },
  });
}
