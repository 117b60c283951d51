/**
 * The host's live events over the WebSocket `/api/events` (same origin, the UI session cookie). Each message
 * is one HostEvent, parsed with the contract; a malformed one is dropped, not fatal. When the socket
 * drops it reconnects with full-jitter exponential backoff (0.5 s doubling to 15 s) and reports its
 * state to the connection store, so the UI can show a banner and resynchronise after a gap.
 */
import { HostEvent } from '../../../shared/contract';
import { type ConnectionSource, ConnectionStore } from './connection-status';

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;

export interface EventSocketOptions {
  url: string;
  random?: () => number;
}

export class EventSocket implements ConnectionSource {
  private readonly store = new ConnectionStore();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private socket: WebSocket | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private everOpened = false;
  private disposed = false;

  constructor(private readonly options: EventSocketOptions) {
    this.connect();
  }

  get = () => this.store.get();
  subscribe = (listener: () => void) => this.store.subscribe(listener);

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  retryNow(): void {
    if (this.disposed || this.store.get().status !== 'closed') return;
    clearTimeout(this.timer);
    this.connect();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.socket?.close();
    this.listeners.clear();
  }

  private connect(): void {
    this.store.set({ status: 'connecting', attempt: this.attempt });
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.url);
    } catch (e) {
      this.scheduleReconnect(e instanceof Error ? e.message : 'cannot open the socket');
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.store.set({ status: 'open', since: Date.now(), reconnected: this.everOpened });
      this.everOpened = true;
      this.attempt = 0;
    };
    socket.onmessage = (message) => this.deliver(message.data);
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (!this.disposed)
        this.scheduleReconnect(close.reason || (close.code === 1006 ? 'connection lost' : `closed (${close.code})`));
    };
  }

  private deliver(data: unknown): void {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = HostEvent.safeParse(json);
    if (!parsed.success) return;
    for (const l of [...this.listeners]) l(parsed.data);
  }

  private scheduleReconnect(reason: string): void {
    this.attempt++;
    const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (this.attempt - 1));
    const delay = Math.max(BASE_DELAY_MS / 2, (this.options.random ?? Math.random)() * ceiling);
    this.store.set({ status: 'closed', attempt: this.attempt, retryAt: Date.now() + delay, reason });
    this.timer = setTimeout(() => this.connect(), delay);
  }
}

export function eventSocketUrl(location: Location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/events`;
}
