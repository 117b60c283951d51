/**
 * GitHub's answers as codes a model can act on. 401: the token is missing, expired or revoked. 403
 * and 429 that are rate limits: RATE_LIMITED with the reset time (primary limit) or the wait
 * GitHub asks for (secondary limit); any other 403: the token lacks a permission or scope, named
 * when GitHub says which. 404: not found, or hidden from this token. 409 (a stale sha) and 422
 * (validation): INVALID_ARGUMENT naming the field to fix. Messages quote GitHub's own message,
 * never the request (whose headers carry the token).
 */
import { ToolCallError, isToolCallError } from '../core/result';
import { toolErrorIn } from '../network/http-fetch';

interface HttpErrorLike {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function isHttpError(e: unknown): e is HttpErrorLike {
  return typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number';
}

interface GithubErrorBody {
  message?: string;
  errors?: Array<{ resource?: string; field?: string; code?: string; message?: string } | string>;
  documentation_url?: string;
}

function bodyOf(e: HttpErrorLike): GithubErrorBody {
  const data = e.response?.data;
  return typeof data === 'object' && data !== null ? (data as GithubErrorBody) : {};
}

function header(e: HttpErrorLike, name: string): string | undefined {
  const v = e.response?.headers?.[name];
  return v === undefined ? undefined : String(v);
}

/** GitHub's message, first line, without the documentation link. */
function githubMessage(e: HttpErrorLike): string {
  const text = bodyOf(e).message ?? e.message ?? '';
  return (
    text
      .split('\n')[0]
      ?.replace(/ - https:\/\/docs\.github\.com\S*$/, '')
      .trim() || `HTTP ${e.status}`
  );
}

function rateLimited(e: HttpErrorLike): ToolCallError | undefined {
  const remaining = header(e, 'x-ratelimit-remaining');
  const retryAfter = Number(header(e, 'retry-after'));
  const secondary = /secondary rate limit/i.test(bodyOf(e).message ?? e.message);
  if (e.status !== 429 && remaining !== '0' && !secondary && !Number.isFinite(retryAfter)) return undefined;
  if (remaining === '0' && !Number.isFinite(retryAfter)) {
    const reset = Number(header(e, 'x-ratelimit-reset'));
    const resetAt = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : undefined;
    const waitS = resetAt ? Math.max(0, Math.ceil((resetAt.getTime() - Date.now()) / 1000)) : undefined;
    return new ToolCallError(
      'RATE_LIMITED',
      `GitHub's rate limit for this token is used up ` +
        `(${githubMessage(e)})${resetAt ? `; it resets at ${resetAt.toISOString()}` : ''}.`,
      {
        hint: resetAt
          ? `Wait until ${resetAt.toISOString()} (about ${waitS} s) before calling GitHub tools again.`
          : 'Wait before calling GitHub tools again.',
        data: {
          status: e.status,
          limit: 'primary',
          ...(resetAt ? { resetAt: resetAt.toISOString(), retryAfterSeconds: waitS } : {}),
        },
      },
    );
  }
  const wait = Number.isFinite(retryAfter) ? retryAfter : 60;
  return new ToolCallError('RATE_LIMITED', `GitHub asked to slow down (${githubMessage(e)}).`, {
    hint: `Wait ${wait} s before calling GitHub tools again, and make fewer calls in a row.`,
    data: { status: e.status, limit: 'secondary', retryAfterSeconds: wait },
  });
}

/** Fields GitHub names in a 422 or 409, as the tool's argument names. */
function fieldsOf(e: HttpErrorLike, rename: Readonly<Record<string, string>>): string[] {
  const body = bodyOf(e);
  const named = (body.errors ?? []).flatMap((item) => (typeof item === 'object' && item.field ? [item.field] : []));
  const quoted = [...(body.message ?? '').matchAll(/"([a-z_]+)" wasn't supplied/g)].map((m) => m[1] ?? '');
  return [...new Set([...named, ...quoted].filter(Boolean).map((f) => rename[f] ?? f))];
}

function validationDetails(e: HttpErrorLike): string {
  const parts = (bodyOf(e).errors ?? []).map((item) =>
    typeof item === 'string'
      ? item
      : [item.field, item.code?.replace(/_/g, ' '), item.message].filter(Boolean).join(': ') || 'invalid',
  );
  return parts.length ? ` (${parts.join('; ')})` : '';
}

export interface GithubErrorContext {
  /** What was asked, for messages: "repository octocat/hello-world". */
  what: string;
  /** GitHub field name → the tool's argument name, for 409/422. */
  fields?: Readonly<Record<string, string>>;
  /** What to do about a 409 conflict (write_file: read the file again for its sha). */
  conflictHint?: string;
}

export function githubFailure(e: unknown, ctx: GithubErrorContext): ToolCallError {
  if (isToolCallError(e)) return e;
  const own = toolErrorIn(e);
  if (own) return own;
  // Octokit reports a request that never got an answer as status 500 without a response.
  if (!isHttpError(e) || (e.status === 500 && !e.response)) return transportFailure(e, ctx);
  const message = githubMessage(e);
  const limited = e.status === 403 || e.status === 429 ? rateLimited(e) : undefined;
  if (limited) return limited;
  switch (e.status) {
    case 401:
      return new ToolCallError(
        'PERMISSION_DENIED',
        `GitHub refused the token (401 ${message}): token missing, expired or lacking scope for ${ctx.what}.`,
        {
          hint:
            'Do not retry: ask the user to set a valid GitHub token ' +
            'in Toolgate Settings → GitHub (or TOOLGATE_GITHUB_TOKEN).',
          data: { status: 401 },
        },
      );
    case 403: {
      const needed = header(e, 'x-accepted-oauth-scopes');
      const has = header(e, 'x-oauth-scopes');
      const scopes = needed ? ` The request needs the scope(s) "${needed}"; the token has "${has ?? ''}".` : '';
      return new ToolCallError('PERMISSION_DENIED', `GitHub refused ${ctx.what} (403 ${message}).${scopes}`, {
        hint:
          'Do not retry: the token lacks the permission or scope this needs, or the repository forbids it. Ask ' +
          'the user for a token with the right access.',
        data: { status: 403, ...(needed ? { neededScopes: needed } : {}) },
      });
    }
    case 404:
    case 410:
      return new ToolCallError('NOT_FOUND', `GitHub found no ${ctx.what} (${e.status} ${message}).`, {
        hint:
          'Check owner, repository, path and branch; a private repository the token cannot see also answers ' +
          '404. github_list_repos lists what the token can see.',
        data: { status: e.status },
      });
    case 409:
      return new ToolCallError('INVALID_ARGUMENT', `GitHub refused ${ctx.what} as a conflict (409 ${message}).`, {
        hint:
          ctx.conflictHint ?? 'The target changed since you read it; read it again and retry with its current state.',
        data: { status: 409, fields: fieldsOf(e, ctx.fields ?? {}).length ? fieldsOf(e, ctx.fields ?? {}) : ['sha'] },
      });
    case 422: {
      const fields = fieldsOf(e, ctx.fields ?? {});
      return new ToolCallError(
        'INVALID_ARGUMENT',
        `GitHub did not accept ${ctx.what} (422 ${message}${validationDetails(e)}).`,
        {
          hint: fields.length ? `Fix ${fields.join(', ')} and retry.` : 'Fix the arguments GitHub names and retry.',
          data: { status: 422, fields },
        },
      );
    }
    default:
      return new ToolCallError('EXECUTION_FAILED', `GitHub answered ${e.status} for ${ctx.what} (${message}).`, {
        hint:
          e.status >= 500 ? 'GitHub had a problem; retry once in a little while.' : 'Check the arguments and retry.',
        data: { status: e.status },
      });
  }
}

function transportFailure(e: unknown, ctx: GithubErrorContext): ToolCallError {
  const name = (e as { name?: unknown })?.name;
  if (name === 'AbortError' || name === 'TimeoutError') {
    return new ToolCallError('TIMEOUT', `GitHub did not answer in time for ${ctx.what}.`, {
      data: { slug: 'github-timeout' },
    });
  }
  const cause = (e as { cause?: { code?: unknown } })?.cause?.code;
  return new ToolCallError(
    'EXECUTION_FAILED',
    `GitHub could not be reached for ${ctx.what}${typeof cause === 'string' ? ` (${cause})` : ''}.`,
    {
      hint: 'Check the network and the GitHub API URL in Settings → GitHub, then retry once.',
      data: { slug: 'github-unreachable' },
    },
  );
}
