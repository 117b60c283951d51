/** github_list_repos: repositories of the token's account, or of a user or organization, bounded. */
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import { type ClientSource, READ_DECLARATION, collect, limit } from '../common';
import { githubFailure } from '../errors';

interface RepoLike {
  full_name: string;
  name: string;
  owner: { login: string } | null;
  private: boolean;
  description: string | null;
  default_branch?: string;
  language?: string | null;
  stargazers_count?: number;
  fork: boolean;
  archived?: boolean;
  html_url: string;
  updated_at?: string | null;
  pushed_at?: string | null;
}

export function githubListReposTool(client: ClientSource) {
  return defineTool({
    id: 'github_list_repos',
    title: 'GitHub repositories',
    description:
      'Lists repositories: those the token can access (its own, collaborations, organizations) or, given owner, those of one user or organization. Each with full name, visibility, description, default branch, language, stars and last push. Bounded by limit; "more" says there were more.',
    input: z.object({
      owner: z
        .string()
        .min(1)
        .max(100)
        .regex(/^[A-Za-z0-9_.-]+$/, 'a GitHub user or organization name')
        .optional()
        .describe("A user or organization whose repositories to list; omit for the token's own."),
      ownerType: z
        .enum(['user', 'org'])
        .default('user')
        .describe('Whether owner is a user or an organization (default "user").'),
      sort: z
        .enum(['updated', 'pushed', 'full_name', 'created'])
        .default('updated')
        .describe('Order of the list (default "updated": most recently updated first).'),
      limit: limit('repositories'),
    }),
    ...READ_DECLARATION,
    async run(args, ctx) {
      const what = args.owner ? `repositories of ${args.owner}` : "the token's repositories";
      const perPage = Math.min(100, args.limit);
      const octokit = client();
      const request = { signal: ctx.signal };
      try {
        const pages = !args.owner
          ? octokit.paginate.iterator(octokit.rest.repos.listForAuthenticatedUser, {
              sort: args.sort,
              per_page: perPage,
              request,
            })
          : args.ownerType === 'org'
            ? octokit.paginate.iterator(octokit.rest.repos.listForOrg, {
                org: args.owner,
                sort: args.sort,
                per_page: perPage,
                request,
              })
            : octokit.paginate.iterator(octokit.rest.repos.listForUser, {
                username: args.owner,
                sort: args.sort,
                per_page: perPage,
                request,
              });
        const { items, more } = await collect(pages as AsyncIterable<{ data: RepoLike[] }>, args.limit);
        return jsonSuccess({
          count: items.length,
          more,
          repositories: items.map((r) => ({
            fullName: r.full_name,
            owner: r.owner?.login ?? null,
            name: r.name,
            private: r.private,
            description: r.description,
            defaultBranch: r.default_branch ?? null,
            language: r.language ?? null,
            stars: r.stargazers_count ?? 0,
            fork: r.fork,
            archived: r.archived ?? false,
            htmlUrl: r.html_url,
            pushedAt: r.pushed_at ?? null,
          })),
        });
      } catch (e) {
        throw githubFailure(e, { what });
      }
    },
  });
}
