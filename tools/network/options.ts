/** How a host configures the network family, and the resolved settings the tools share. */
import type { SelfGuard } from '../common/self-guard';
import { type LookupFunction, defaultLookup, destinationPolicy, guardedFetch } from './address-guard';
import { connectGuardedFetch } from './guarded-connect';
import type { FetchLike } from './http-fetch';

export interface NetworkToolsOptions {
  /** Folder download_file writes into; no target path may leave it. */
  workspaceRoot: string;
  /**
   * Search provider endpoint (see web-search.ts for the contract), or a getter so a settings change
   * applies without rebuilding the tools. Unset: web_search answers UNSUPPORTED.
   */
  webSearchEndpoint?: string | (() => string | undefined);
  /** Defaults to the global fetch; tests and proxies inject their own. */
  fetchImpl?: FetchLike;
  /** Most bytes web_fetch, http_request and web_search read of one response body. Default 5 MiB. */
  maxBytes?: number;
  /** Largest file download_file writes. Default 100 MiB. */
  maxDownloadBytes?: number;
  /** Name resolution for the destination checks and the connections (default: the system's, as `dns.lookup`). */
  lookup?: LookupFunction;
  /**
   * Also refuse loopback and private networks (link-local is always refused); a getter applies a setting change at
   * once.
   */
  blockPrivateAddresses?: boolean | (() => boolean);
  /** Toolgate itself (its port, its data dir), refused whatever `blockPrivateAddresses` says. */
  self?: SelfGuard;
}

export interface NetworkSettings {
  workspaceRoot: string;
  fetchImpl: FetchLike;
  maxBytes: number;
  maxDownloadBytes: number;
  searchEndpoint(): string | undefined;
}

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 300_000;

export function resolveNetworkSettings(options: NetworkToolsOptions): NetworkSettings {
  const endpoint = options.webSearchEndpoint;
  const lookup = options.lookup ?? defaultLookup;
  const blockPrivate = () => {
    const block = options.blockPrivateAddresses;
    return typeof block === 'function' ? block() : (block ?? false);
  };
  const policy = destinationPolicy(blockPrivate, options.self);
  return {
    workspaceRoot: options.workspaceRoot,
    fetchImpl: guardedFetch(options.fetchImpl ?? connectGuardedFetch(policy, lookup), policy, lookup),
    maxBytes: positive(options.maxBytes, DEFAULT_MAX_BYTES),
    maxDownloadBytes: positive(options.maxDownloadBytes, DEFAULT_MAX_DOWNLOAD_BYTES),
    searchEndpoint: () => {
      const value = typeof endpoint === 'function' ? endpoint() : endpoint;
      return value?.trim() ? value.trim() : undefined;
    },
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}
