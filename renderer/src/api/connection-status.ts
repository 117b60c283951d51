/**
 * Whether the live event stream is up, as a tiny external store (subscribe/get) that React reads
 * with useSyncExternalStore. `retryAt` tells the banner when the next reconnect attempt is due.
 */
export type ConnectionState =
  | { status: 'connecting'; attempt: number }
  | { status: 'open'; since: number; reconnected: boolean }
  | { status: 'closed'; attempt: number; retryAt: number; reason: string };

export interface ConnectionSource {
  get(): ConnectionState;
  subscribe(listener: () => void): () => void;
  /** Skip the backoff wait and try to reconnect now. */
  retryNow(): void;
}

export class ConnectionStore {
  private state: ConnectionState = { status: 'connecting', attempt: 0 };
  private readonly listeners = new Set<() => void>();

  get = (): ConnectionState => this.state;

  set(next: ConnectionState): void {
    this.state = next;
    for (const l of [...this.listeners]) l();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** A connection that never drops (Electron IPC). */
export function alwaysOpen(): ConnectionSource {
  const state: ConnectionState = { status: 'open', since: Date.now(), reconnected: false };
  return { get: () => state, subscribe: () => () => undefined, retryNow: () => undefined };
}

/** No event stream at all (a page without a UI session): closed, with no retry due. */
export function neverOpen(reason: string): ConnectionSource {
  const state: ConnectionState = { status: 'closed', attempt: 0, retryAt: Number.POSITIVE_INFINITY, reason };
  return { get: () => state, subscribe: () => () => undefined, retryNow: () => undefined };
}
