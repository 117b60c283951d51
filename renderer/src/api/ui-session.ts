/**
 * Whether this page holds a person's UI session (headless mode). The session itself is an HttpOnly
 * cookie the page cannot read; its CSRF token sits in a cookie the page can, and goes with every
 * call. No CSRF cookie means the page was not opened from a one-time link; a 401 from the host
 * means the session ended. Either way the app shows how to open it properly instead of pages that
 * cannot load. In Electron the IPC channel is the person's credential and the session is always there.
 */
import { CSRF_COOKIE } from '../../../shared/ui-session';

export type SessionState = 'active' | 'missing';

export interface SessionSource {
  get(): SessionState;
  subscribe(listener: () => void): () => void;
}

export function csrfFromCookies(cookie: string): string | undefined {
  for (const part of cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CSRF_COOKIE && value.length > 0) return value.join('=');
  }
  return undefined;
}

export class SessionStore implements SessionSource {
  private readonly listeners = new Set<() => void>();

  constructor(private state: SessionState) {}

  get = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The host said the session is gone (401). */
  lost(): void {
    if (this.state === 'missing') return;
    this.state = 'missing';
    for (const l of [...this.listeners]) l();
  }
}

export function alwaysActive(): SessionSource {
  return { get: () => 'active', subscribe: () => () => undefined };
}
