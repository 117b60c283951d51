/**
 * The GitHub client: @octokit/rest with the throttling and retry plugins. Throttling spaces
 * writes and searches as GitHub asks; a rate limit that resets within a few seconds is waited out
 * once, a longer one is answered to the model as RATE_LIMITED with its reset time instead of
 * holding the call. Retry repeats a request that failed with a server error, once. Octokit's own
 * logging is silenced: its messages could carry request details, and nothing here is logged.
 */
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { FetchLike } from '../network/http-fetch';

export const DEFAULT_GITHUB_API = 'https://api.github.com';
/** Longest rate-limit wait the client sits out by itself before answering RATE_LIMITED. */
const MAX_OWN_WAIT_S = 5;

const GithubOctokit = Octokit.plugin(throttling, retry);
export type GithubClient = InstanceType<typeof GithubOctokit>;

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface GithubClientOptions {
  token: string;
  baseUrl: string;
  fetchImpl: FetchLike;
  userAgent: string;
  /** Delay unit of the retry plugin, in ms (default 1000; tests shorten it). */
  retryAfterBaseValue?: number;
}

export function createGithubClient(options: GithubClientOptions): GithubClient {
  const shortWait = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
    retryCount === 0 && retryAfter <= MAX_OWN_WAIT_S;
  return new GithubOctokit({
    auth: options.token,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    userAgent: options.userAgent,
    log: silent,
    request: { fetch: options.fetchImpl },
    throttle: { onRateLimit: shortWait, onSecondaryRateLimit: shortWait },
    retry: {
      retries: 1,
      // A conflict is not transient, and a rate limit is the throttling plugin's to judge.
      doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429, 451],
      ...(options.retryAfterBaseValue ? { retryAfterBaseValue: options.retryAfterBaseValue } : {}),
    },
  });
}
