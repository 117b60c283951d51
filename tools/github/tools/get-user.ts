/** github_get_user: the token's own account, or any user's public profile. */
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import { type ClientSource, READ_DECLARATION } from '../common';
import { githubFailure } from '../errors';

export function githubGetUserTool(client: ClientSource) {
  return defineTool({
    id: 'github_get_user',
    title: 'GitHub user',
    description:
      "Returns a GitHub user's profile: login, name, type, company, location, bio, public repository and follower counts. Without a username, the account the configured token belongs to (a quick way to check the token works).",
    input: z.object({
      username: z
        .string()
        .min(1)
        .max(39)
        .regex(/^[A-Za-z0-9-]+$/, 'a GitHub login: letters, digits and - only')
        .optional()
        .describe('The user\'s login, e.g. "octocat"; omit for the token\'s own account.'),
    }),
    ...READ_DECLARATION,
    annotations: { ...READ_DECLARATION.annotations, sensitiveAction: true },
    async run(args, ctx) {
      const what = args.username ? `user ${args.username}` : 'the authenticated user';
      try {
        const { data: u } = args.username
          ? await client().rest.users.getByUsername({ username: args.username, request: { signal: ctx.signal } })
          : await client().rest.users.getAuthenticated({ request: { signal: ctx.signal } });
        return jsonSuccess({
          login: u.login,
          id: u.id,
          type: u.type,
          name: u.name ?? null,
          company: u.company ?? null,
          location: u.location ?? null,
          bio: u.bio ?? null,
          publicRepos: u.public_repos ?? null,
          followers: u.followers ?? null,
          following: u.following ?? null,
          htmlUrl: u.html_url,
          createdAt: u.created_at ?? null,
          authenticated: !args.username,
        });
      } catch (e) {
        throw githubFailure(e, { what });
      }
    },
  });
}
