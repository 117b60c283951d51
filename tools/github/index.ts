/**
 * The GitHub family: github_get_user, github_list_repos, github_read_file, github_write_file,
 * github_create_issue, github_list_issues, github_search_code, over @octokit/rest with the
 * throttling and retry plugins. Registered only while a token is set (see github-connector.ts).
 *
 * Host wiring:
 *   const github = githubFamily({ registry, tokens, env, apiUrl: () => settings.get('githubApiUrl'), userAgent });
 *   github.connector.sync();   // registers the tools when a token is set
 */
import type { ToolRegistry } from '../core/registry';
import type { Tool } from '../core/tool';
import { destinationPolicy, guardedFetch } from '../network/address-guard';
import { connectGuardedFetch } from '../network/guarded-connect';
import type { FetchLike } from '../network/http-fetch';
import type { GithubClient } from './client';
import { GithubConnector } from './github-connector';
import type { GithubTokenStore } from './token-store';
import { githubCreateIssueTool } from './tools/create-issue';
import { githubGetUserTool } from './tools/get-user';
import { githubListIssuesTool } from './tools/list-issues';
import { githubListReposTool } from './tools/list-repos';
import { githubReadFileTool } from './tools/read-file';
import { githubSearchCodeTool } from './tools/search-code';
import { githubWriteFileTool } from './tools/write-file';
import type { SelfGuard } from '../common/self-guard';

export interface GithubFamilyOptions {
  registry: ToolRegistry;
  tokens: GithubTokenStore;
  env: NodeJS.ProcessEnv;
  /** The githubApiUrl setting (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). */
  apiUrl: () => string | undefined;
  userAgent: string;
  /** Toolgate itself (its port, its data dir), which no tool may reach. */
  self: SelfGuard;
  /**
   * Default: a fetch that never connects to link-local addresses (cloud metadata) nor Toolgate itself, like the network
   * tools'.
   */
  fetchImpl?: FetchLike;
  retryAfterBaseValue?: number;
}

export function githubTools(client: () => GithubClient): Tool[] {
  return [
    githubGetUserTool(client),
    githubListReposTool(client),
    githubReadFileTool(client),
    githubWriteFileTool(client),
    githubCreateIssueTool(client),
    githubListIssuesTool(client),
    githubSearchCodeTool(client),
  ] as Tool[];
}

export const GITHUB_TOOL_IDS = [
  'github_get_user',
  'github_list_repos',
  'github_read_file',
  'github_write_file',
  'github_create_issue',
  'github_list_issues',
  'github_search_code',
] as const;

export function githubFamily(options: GithubFamilyOptions): { connector: GithubConnector } {
  // GitHub Enterprise may live on the LAN, so private addresses stay reachable; Toolgate itself never.
  const policy = destinationPolicy(() => false, options.self);
  const connector = new GithubConnector({
    registry: options.registry,
    tokens: options.tokens,
    env: options.env,
    apiUrl: options.apiUrl,
    userAgent: options.userAgent,
    fetchImpl: options.fetchImpl ?? guardedFetch(connectGuardedFetch(policy), policy),
    tools: githubTools,
    ...(options.retryAfterBaseValue ? { retryAfterBaseValue: options.retryAfterBaseValue } : {}),
  });
  return { connector };
}

export { DEFAULT_GITHUB_API } from './client';
export { GITHUB_TOOLSET } from './toolset';
export { GithubConnector, type GithubStatus, GithubTokenError } from './github-connector';
export { GITHUB_TOKEN_ENV, type GithubTokenStore, TOKEN_PATTERN, fileTokenStore, writeOwnerOnly } from './token-store';
