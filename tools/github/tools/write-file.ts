/**
 * github_write_file: creates or updates one file with a commit. Updating needs the file's current
 * sha (from github_read_file), so a file changed by someone else since is never overwritten
 * blindly: GitHub answers 409 or 422 and the model is told to read it again. A write the person
 * sees on GitHub, under their name: HIGH, asks for approval.
 */
import { z } from 'zod';
import { jsonSuccess } from '../../core/result';
import { defineTool } from '../../core/tool';
import { type ClientSource, filePath, owner, repo, writeDeclaration } from '../common';
import { githubFailure } from '../errors';

const MAX_CONTENT_CHARS = 1_000_000;

export function githubWriteFileTool(client: ClientSource) {
  return defineTool({
    id: 'github_write_file',
    title: 'Write a GitHub file',
    description:
      'Creates or updates a file of a GitHub repository in one commit; the person approves first. To update, pass ' +
      'the sha github_read_file gave.',
    input: z.object({
      owner,
      repo,
      path: filePath,
      content: z.string().max(MAX_CONTENT_CHARS).describe('The whole new text.'),
      message: z.string().trim().min(1).max(2000),
      sha: z
        .string()
        .regex(/^[0-9a-f]{40}$/, 'a 40-character hex blob sha, as github_read_file returns it')
        .optional()
        .describe('To update: from github_read_file.'),
      branch: z.string().min(1).max(255).optional().describe('The default branch if omitted.'),
    }),
    ...writeDeclaration({ destructive: true, idempotent: false }),
    async run(args, ctx) {
      const what = `the write of ${args.path} in ${args.owner}/${args.repo}${args.branch ? ` on ${args.branch}` : ''}`;
      try {
        const { data, status } = await client().rest.repos.createOrUpdateFileContents({
          owner: args.owner,
          repo: args.repo,
          path: args.path,
          message: args.message,
          content: Buffer.from(args.content, 'utf8').toString('base64'),
          ...(args.sha ? { sha: args.sha } : {}),
          ...(args.branch ? { branch: args.branch } : {}),
          request: { signal: ctx.signal },
        });
        return jsonSuccess({
          created: status === 201,
          path: data.content?.path ?? args.path,
          sha: data.content?.sha ?? null,
          commit: {
            sha: data.commit.sha ?? null,
            htmlUrl: data.commit.html_url ?? null,
            message: data.commit.message ?? null,
          },
          htmlUrl: data.content?.html_url ?? null,
        });
      } catch (e) {
        throw githubFailure(e, {
          what,
          conflictHint:
            'The file changed since you read it (its sha is stale): read it ' +
            'again with github_read_file and retry with the sha it returns.',
        });
      }
    },
  });
}
