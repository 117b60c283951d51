/**
 * A tiny hash router: `#/page/rest…`. Hash routes need nothing from the server (the page is always
 * `/`) and work the same from a file:// URL in Electron.
 */
import { useSyncExternalStore } from 'react';

export interface Route {
  page: string;
  /** The decoded path segments after the page, e.g. a tool id or a call id. */
  params: string[];
}

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(safeDecode);
  return { page: parts[0] ?? '', params: parts.slice(1) };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function hrefFor(page: string, ...params: string[]): string {
  return `#/${[page, ...params].map(encodeURIComponent).join('/')}`;
}

export function navigate(page: string, ...params: string[]): void {
  window.location.hash = hrefFor(page, ...params);
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

export function useHashRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseHash(hash);
}
