/**
 * Recent requests of the browser session (every tab, popups included), in a bounded ring:
 * method, URL, status, timing, resource type, failure text. Filterable the way a model asks:
 * by URL substring, status or status class, and resource type.
 */
import type { BrowserContext, Request, Response } from 'playwright-core';
import { type Disposable, toDisposable } from '../core/disposable';
import { RingBuffer } from './ring-buffer';

export interface NetworkEntry {
  id: number;
  method: string;
  url: string;
  resourceType: string;
  state: 'pending' | 'done' | 'failed';
  status?: number;
  failure?: string;
  /** Epoch ms when the request started. */
  startedAt: number;
  durationMs?: number;
}

export type StatusFilter = number | '2xx' | '3xx' | '4xx' | '5xx' | 'failed' | 'pending';

export interface NetworkFilter {
  urlContains?: string;
  status?: StatusFilter;
  resourceType?: string;
  /** Newest N after filtering; default 50. */
  limit?: number;
}

export function matchesStatus(entry: NetworkEntry, status: StatusFilter): boolean {
  if (typeof status === 'number') return entry.status === status;
  if (status === 'failed') return entry.state === 'failed';
  if (status === 'pending') return entry.state === 'pending';
  const hundreds = Number(status[0]);
  return entry.status !== undefined && Math.floor(entry.status / 100) === hundreds;
}

export class NetworkLog {
  private readonly ring: RingBuffer<NetworkEntry>;
  private readonly live = new WeakMap<Request, NetworkEntry>();
  private nextId = 1;

  constructor(
    capacity = 500,
    private readonly now: () => number = Date.now,
  ) {
    this.ring = new RingBuffer(capacity);
  }

  attach(context: BrowserContext): Disposable {
    const onRequest = (request: Request) => {
      const entry: NetworkEntry = {
        id: this.nextId++,
        method: request.method(),
        url: request.url(),
        resourceType: request.resourceType(),
        state: 'pending',
        startedAt: this.now(),
      };
      this.live.set(request, entry);
      this.ring.push(entry);
    };
    const onResponse = (response: Response) => {
      const entry = this.live.get(response.request());
      if (entry) entry.status = response.status();
    };
    const onFinished = (request: Request) => this.finish(request, undefined);
    const onFailed = (request: Request) => this.finish(request, request.failure()?.errorText ?? 'failed');
    context.on('request', onRequest);
    context.on('response', onResponse);
    context.on('requestfinished', onFinished);
    context.on('requestfailed', onFailed);
    return toDisposable(() => {
      context.off('request', onRequest);
      context.off('response', onResponse);
      context.off('requestfinished', onFinished);
      context.off('requestfailed', onFailed);
    });
  }

  entries(filter: NetworkFilter = {}): NetworkEntry[] {
    const needle = filter.urlContains?.toLowerCase();
    const type = filter.resourceType?.toLowerCase();
    const matching = this.ring
      .toArray()
      .filter(
        (e) =>
          (needle === undefined || e.url.toLowerCase().includes(needle)) &&
          (type === undefined || e.resourceType === type) &&
          (filter.status === undefined || matchesStatus(e, filter.status)),
      );
    const limit = filter.limit ?? 50;
    return matching.slice(-limit).map((e) => ({ ...e }));
  }

  get size(): number {
    return this.ring.size;
  }

  get evicted(): number {
    return this.ring.evicted;
  }

  clear(): void {
    this.ring.clear();
  }

  private finish(request: Request, failure: string | undefined): void {
    const entry = this.live.get(request);
    if (!entry) return;
    entry.state = failure === undefined ? 'done' : 'failed';
    if (failure !== undefined) entry.failure = failure;
    entry.durationMs = Math.max(0, Math.round(this.now() - entry.startedAt));
    this.live.delete(request);
  }
}
