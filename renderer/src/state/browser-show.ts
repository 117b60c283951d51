/**
 * `browser_show`: an agent asks the person to look at the mirrored page. The app-wide listener
 * remembers the latest request in a tiny external store and moves to the Browser page from
 * wherever the person is; the Browser page reads the request to show its banner and highlight.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { RendererApi } from '../../../shared/contract';
import { navigate } from '../router/hash-route';
import { useApi } from './api-context';

export interface BrowserShowRequest {
  url?: string;
  reason?: string;
  /** When the request arrived (page clock), also the request's identity. */
  at: number;
}

let current: BrowserShowRequest | undefined;
const listeners = new Set<() => void>();

function set(next: BrowserShowRequest | undefined): void {
  current = next;
  for (const l of [...listeners]) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dismissBrowserShow(): void {
  set(undefined);
}

/** The last request not yet dismissed. */
export function useBrowserShowRequest(): BrowserShowRequest | undefined {
  return useSyncExternalStore(subscribe, () => current);
}

export function listenForBrowserShow(api: RendererApi, now: () => number = Date.now): () => void {
  return api.onEvent((e) => {
    if (e.type !== 'browser-show') return;
    set({ at: now(), ...(e.url ? { url: e.url } : {}), ...(e.reason ? { reason: e.reason } : {}) });
    navigate('browser');
  });
}

/** Mounted once by the app shell. */
export function useBrowserShowNavigation(): void {
  const api = useApi();
  useEffect(() => listenForBrowserShow(api), [api]);
}
