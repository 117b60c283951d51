/** github_create_issue: opens an issue, visible to everyone who can see the repository. HIGH: asks for approval. */
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import { type ClientSource, owner, repo, writeDeclaration } from '../common';
import { githubFailure } from '../errors';

export function githubCreateIssueTool(client: ClientSource) {
  return defineTool({
    id: 'github_create_issue',
    title: 'Create a GitHub issue',
    description:
      "Opens an issue in a GitHub repository with a title, Markdown body, and optional labels and assignees. Everyone who can see the repository sees it, under the token's account. Needs the user's approval.",
    input: z.object({
      owner,
      repo,
      title: z.string().trim().min(1).max(256).describe('The issue title (at most 256 characters).'),
      body: z
        .string()
        .max(65_536)
        .optional()
        .describe('The issue text, in GitHub Markdown (at most 65536 characters).'),
      labels: z
        .array(z.string().min(1).max(50))
        .max(20)
        .optional()
        .describe('Labels to apply; they must exist in the repository, or GitHub refuses (422).'),
      assignees: z
        .array(z.string().min(1).max(39))
        .max(10)
        .optional()
        .describe('Logins to assign; they must have access to the repository.'),
    }),
    ...writeDeclaration({ destructive: false, idempotent: false }),
    async run(args, ctx) {
      try {
        const { data } = await client().rest.issues.create({
          owner: args.owner,
          repo: args.repo,
          title: args.title,
          ...(args.body !== undefined ? { body: args.body } : {}),
          ...(args.labels ? { labels: args.labels } : {}),
          ...(args.assignees ? { assignees: args.assignees } : {}),
          request: { signal: ctx.signal },
        });
        return jsonSuccess({
          number: data.number,
          title: data.title,
          state: data.state,
          htmlUrl: data.html_url,
          labels: data.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))),
          createdAt: data.created_at,
        });
      } catch (e) {
        throw githubFailure(e, { what: `a new issue in ${args.owner}/${args.repo}` });
      }
    },
  });
}
