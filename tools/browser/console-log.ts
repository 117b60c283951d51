/** Console messages and uncaught page errors of every tab, in bounded rings, for debugging dumps. */
import type { ConsoleMessage, Page } from 'playwright-core';
import { type Disposable, toDisposable } from '../core/disposable';
import { RingBuffer } from './ring-buffer';

export interface ConsoleEntry {
  type: string;
  text: string;
  /** Epoch ms. */
  at: number;
  url?: string;
  line?: number;
}

export interface PageErrorEntry {
  message: string;
  stack?: string;
  at: number;
  pageUrl: string;
}

export class ConsoleLog {
  private readonly messages: RingBuffer<ConsoleEntry>;
  private readonly errors: RingBuffer<PageErrorEntry>;

  constructor(
    capacity = 300,
    private readonly now: () => number = Date.now,
  ) {
    this.messages = new RingBuffer(capacity);
    this.errors = new RingBuffer(Math.max(1, Math.floor(capacity / 3)));
  }

  attach(page: Page): Disposable {
    const onConsole = (msg: ConsoleMessage) => {
      const location = msg.location();
      const entry: ConsoleEntry = { type: msg.type(), text: msg.text(), at: this.now() };
      if (location.url) {
        entry.url = location.url;
        entry.line = location.lineNumber;
      }
      this.messages.push(entry);
    };
    const onError = (error: Error) => {
      const entry: PageErrorEntry = { message: error.message, at: this.now(), pageUrl: page.url() };
      if (error.stack) entry.stack = error.stack;
      this.errors.push(entry);
    };
    page.on('console', onConsole);
    page.on('pageerror', onError);
    return toDisposable(() => {
      page.off('console', onConsole);
      page.off('pageerror', onError);
    });
  }

  consoleMessages(limit = 100): ConsoleEntry[] {
    return this.messages.last(limit);
  }

  pageErrors(limit = 50): PageErrorEntry[] {
    return this.errors.last(limit);
  }
}
