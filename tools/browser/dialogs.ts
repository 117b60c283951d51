/**
 * Modal dialogs (alert, confirm, prompt, beforeunload). While one is open the page's JavaScript is
 * frozen and every Playwright call on it hangs, so the dialog is kept open (not auto-dismissed) and
 * reported: tools refuse with a message that says how to handle it, and an action that opens one
 * returns at once instead of hanging.
 */
import type { Dialog, Page } from 'playwright-core';
import { type Disposable, Emitter, toDisposable } from '../core/disposable';
import { ToolCallError } from '../core/result';

export type DialogType = 'alert' | 'confirm' | 'prompt' | 'beforeunload';

export interface DialogInfo {
  type: DialogType;
  message: string;
  /** The prompt's prefilled answer; empty for other kinds. */
  defaultValue: string;
  openedAt: number;
}

interface OpenDialog {
  dialog: Dialog;
  info: DialogInfo;
}

function asType(t: string): DialogType {
  return t === 'confirm' || t === 'prompt' || t === 'beforeunload' ? t : 'alert';
}

/** What the model must call to get past an open dialog. Kept in one place so every refusal says the same. */
export function dialogAdvice(info: DialogInfo): string {
  const prompt = info.type === 'prompt' ? ', adding "promptText" with your answer' : '';
  const leave = info.type === 'beforeunload' ? ' (accept leaves the page, dismiss stays)' : '';
  return `Handle it first: call browser_click with {"dialog": "accept"} or {"dialog": "dismiss"}${prompt}${leave}.`;
}

export function describeDialog(info: DialogInfo): string {
  return `a modal ${info.type} dialog${info.message ? ` saying ${JSON.stringify(info.message.slice(0, 300))}` : ''}`;
}

/** A tool call that a dialog interrupted; it resumes once the dialog is answered. */
export interface InterruptedCall {
  tool: string;
  work: Promise<unknown>;
}

export class DialogWatcher {
  private readonly open = new Map<Page, OpenDialog>();
  private readonly interrupted = new Map<Page, InterruptedCall>();
  private readonly opened = new Emitter<{ page: Page; info: DialogInfo }>();
  private readonly closed = new Emitter<Page>();

  constructor(private readonly now: () => number = Date.now) {}

  attach(page: Page): Disposable {
    const onDialog = (dialog: Dialog) => {
      const info: DialogInfo = {
        type: asType(dialog.type()),
        message: dialog.message(),
        defaultValue: dialog.defaultValue(),
        openedAt: this.now(),
      };
      this.open.set(page, { dialog, info });
      this.opened.emit({ page, info });
    };
    page.on('dialog', onDialog);
    return toDisposable(() => {
      page.off('dialog', onDialog);
      this.interrupted.delete(page);
      if (this.open.delete(page)) this.closed.emit(page);
    });
  }

  pending(page: Page | undefined): DialogInfo | undefined {
    return page ? this.open.get(page)?.info : undefined;
  }

  onOpened(listener: (event: { page: Page; info: DialogInfo }) => void): Disposable {
    return this.opened.on(listener);
  }

  onClosed(listener: (page: Page) => void): Disposable {
    return this.closed.on(listener);
  }

  /** A promise that resolves when `page` opens a dialog; dispose the handle when the race is over. */
  whenOpened(page: Page): { promise: Promise<DialogInfo>; dispose(): void } {
    let handle: Disposable | undefined;
    const promise = new Promise<DialogInfo>((resolve) => {
      handle = this.opened.on((event) => {
        if (event.page === page) resolve(event.info);
      });
    });
    return { promise, dispose: () => handle?.dispose() };
  }

  /** Remembers the call a dialog on `page` interrupted, so answering the dialog can report how it ended. */
  setInterrupted(page: Page, call: InterruptedCall): void {
    this.interrupted.set(page, call);
  }

  takeInterrupted(page: Page): InterruptedCall | undefined {
    const call = this.interrupted.get(page);
    this.interrupted.delete(page);
    return call;
  }

  async handle(page: Page, accept: boolean, promptText?: string): Promise<DialogInfo> {
    const entry = this.open.get(page);
    if (!entry)
      throw new ToolCallError('NOT_FOUND', 'No dialog is open on the current tab.', {
        hint: 'Call browser_click without "dialog"; there is nothing to accept or dismiss.',
      });
    this.open.delete(page);
    this.closed.emit(page);
    // A dialog can already be gone (page navigated, tab closed); that still counts as handled.
    if (accept) await entry.dialog.accept(promptText).catch(() => undefined);
    else await entry.dialog.dismiss().catch(() => undefined);
    return entry.info;
  }
}
