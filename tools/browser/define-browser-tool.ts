/**
 * Preconditions of the browser family as wrappers, not code inside each handler: report a crash or
 * a closed browser once (the next call relaunches), refuse while a modal dialog blocks the page,
 * return at once when an action opens a dialog instead of hanging on it, honour cancellation, map
 * Playwright errors to codes, and record every action for the mirror view.
 */
import type { Locator, Page } from 'playwright-core';
import type { z } from 'zod';
import { type ToolErrorCode, type ToolResult, ToolCallError, isToolCallError, success } from '../core/result';
import { type Tool, type ToolContext, type ToolDefinition, type ToolReturn, defineTool } from '../core/tool';
import type { BrowserManager } from './browser-manager';
import { type DialogInfo, describeDialog, dialogAdvice } from './dialogs';
import { type DownloadEntry, safeFileName } from './downloads';
import { redactUrlText } from '../network/secrets';
import { errorText, isGoneError, lossError, toToolCallError } from './errors';
import { describeRef, resolveRefTarget } from './snapshot/refs';

export interface ShowInfo {
  url: string;
  title: string;
  /** 0-based index of the shown tab. */
  tabIndex: number;
  at: number;
  /** The model's note for the person watching. */
  reason?: string;
}

export interface BrowserToolDeps {
  manager: BrowserManager;
  /** Files for upload come from here; downloads and debug dumps go here. */
  workspaceRoot: string;
  /** Brings the mirror view forward in the host UI (browser_show). */
  onShow?: (info: ShowInfo) => void;
}

export interface PageRun<Args> {
  args: Args;
  ctx: ToolContext;
  page: Page;
  deps: BrowserToolDeps;
}

type BaseDefinition<S extends z.ZodType> = Omit<ToolDefinition<S>, 'run'>;

export interface PageToolDefinition<S extends z.ZodType> extends BaseDefinition<S> {
  /** What the call acts on, for error messages and the recent-actions ring (a ref, a URL…). */
  target(args: z.infer<S>): string;
  /** This call may run while a dialog is open (it is the call that handles it). */
  allowedWithDialog?(args: z.infer<S>): boolean;
  /** Hint for a Playwright timeout of this tool. */
  timeoutHint?: string;
  run(run: PageRun<z.infer<S>>): Promise<ToolReturn>;
}

const cancelledError = () =>
  new ToolCallError('TIMEOUT', 'The browser call was cancelled or ran out of time before it finished.', {
    hint: 'Take a browser_snapshot to see what state the page is in before retrying.',
  });

/**
 * Rejects when the call is cancelled; dispose it afterwards, as the executor may share one never-aborted signal between
 * calls.
 */
function cancellation(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let fail = () => {};
  const promise = new Promise<never>((_, reject) => {
    fail = () => reject(cancelledError());
  });
  if (signal.aborted) fail();
  else signal.addEventListener('abort', fail, { once: true });
  return { promise, dispose: () => signal.removeEventListener('abort', fail) };
}

async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}

function openedDialog(info: DialogInfo, what: string): ToolResult {
  return success(`${what} opened ${describeDialog(info)}; the page waits for an answer. ${dialogAdvice(info)}`, {
    dialog: info,
  });
}

/** What a download the page started during a call becomes, in the words the model reads. */
function downloadNote(started: readonly DownloadEntry[], canApprove: boolean): string | undefined {
  if (started.length === 0) return undefined;
  const names = started.map((d) => `${safeFileName(d.suggestedFilename)} from ${redactUrlText(d.url) ?? 'the page'}`);
  const what = `The page started a download: ${names.join(', ')}.`;
  return canApprove
    ? `${what} A download is a write into the workspace: it is waiting for approval by the user and is saved to ` +
        'downloads/ only if they approve (browser_download_list shows whether it was).'
    : `${what} Downloads need a person's approval and no one can give it here, so it was discarded.`;
}

/** What the browser refused to load, and the downloads it started, told after a call's answer. */
function withNotes(result: ToolReturn, refusals: readonly ToolCallError[], downloads: string | undefined): ToolReturn {
  const notes = [
    ...(refusals.length
      ? [`Toolgate blocked what the page tried to load: ${refusals.map((r) => r.message).join(' ')}`]
      : []),
    ...(downloads ? [downloads] : []),
  ];
  if (notes.length === 0) return result;
  const note = notes.join('\n');
  if (typeof result === 'string') return `${result}\n${note}`;
  if (!result.ok) return result;
  return { ...result, content: [...result.content, { type: 'text', text: note }] };
}

/** The ref, described with its role and name from the latest snapshot when it has one. */
export function targetText(page: Page | undefined, target: string): string {
  return page && /^(f\d+)?e\d+$/.test(target) ? describeRef(page, target) : target;
}

/** A tool that acts on the active tab (launching the browser on first use). */
export function definePageTool<S extends z.ZodType>(
  deps: BrowserToolDeps,
  def: PageToolDefinition<S>,
): Tool<z.infer<S>> {
  const { manager } = deps;
  return defineTool({
    ...def,
    breakerScope: def.breakerScope ?? (() => manager.breakerScope()),
    run: async (args, ctx) => {
      let page: Page | undefined;
      let ok = false;
      let code: ToolErrorCode | undefined;
      manager.noteCall(ctx);
      const mark = manager.refusalMark();
      const started: DownloadEntry[] = [];
      const watching = manager.downloads.onStarted((entry) => started.push(entry));
      const notes = () => downloadNote(started, manager.downloads.canApprove);
      try {
        const loss = manager.takeLoss();
        if (loss) throw lossError(loss);
        page = await manager.page();
        const blocking = manager.dialogs.pending(page);
        if (blocking && !def.allowedWithDialog?.(args)) {
          throw new ToolCallError(
            'EXECUTION_FAILED',
            `The page is blocked by ${describeDialog(blocking)}. ${dialogAdvice(blocking)}`,
            {
              hint: 'Answer the dialog with browser_click {"dialog": …}, then retry this call.',
              data: { dialog: blocking },
            },
          );
        }
        const dialog = manager.dialogs.whenOpened(page);
        const abort = cancellation(ctx.signal);
        const body = def.run({ args, ctx, page, deps });
        // The body keeps running when a dialog or cancellation wins the race; its late failure is nobody's business.
        body.catch(() => undefined);
        // Let the body see an abort and clean up (stop a navigation) before the next call starts.
        const cancelled = abort.promise.catch(async (e: unknown) => {
          await settleWithin(body, 2_000);
          throw e;
        });
        try {
          const raced = await Promise.race([
            body.then((result) => ({ result })),
            dialog.promise.then((opened) => ({ opened })),
            cancelled,
          ]);
          if ('opened' in raced) {
            ok = true;
            manager.dialogs.setInterrupted(page, { tool: def.id, work: body });
            return openedDialog(raced.opened, `${def.id} on ${targetText(page, def.target(args))}`);
          }
          ok = typeof raced.result === 'string' || raced.result.ok;
          if (typeof raced.result !== 'string' && !raced.result.ok) code = raced.result.error.code;
          return withNotes(raced.result, manager.refusalsSince(mark), notes());
        } finally {
          dialog.dispose();
          abort.dispose();
        }
      } catch (e) {
        try {
          return await recover(e);
        } catch (thrown) {
          code = isToolCallError(thrown) ? thrown.toolErrorCode : 'EXECUTION_FAILED';
          throw thrown;
        }
      } finally {
        watching.dispose();
        manager.recordAction(def.id, targetText(page, def.target(args)), ok, code);
      }

      /**
       * What a failed call answers: the refusal behind it, a started download, a loss, or the error in the model's
       * words.
       */
      async function recover(e: unknown): Promise<ToolReturn> {
        if (ctx.signal.aborted) throw cancelledError();
        // A load that failed because Toolgate refused it fails with that refusal, not a network error.
        const refusal = manager.refusalsSince(mark)[0];
        if (refusal && /net::ERR_(BLOCKED_BY_CLIENT|NAME_NOT_RESOLVED)|failed to load/.test(errorText(e)))
          throw refusal;
        // Opening a URL that is a download "fails" in Playwright; for the model it started a download.
        const downloaded = notes();
        if (downloaded && /Download is starting/.test(errorText(e))) {
          ok = true;
          return success(downloaded);
        }
        if (page && (isGoneError(e) || page.isClosed())) {
          const loss = await manager.awaitLoss(500);
          if (loss) throw lossError(loss);
        }
        throw toToolCallError(e, {
          action: `${def.id} on ${targetText(page, def.target(args))}`,
          ...(def.timeoutHint ? { timeoutHint: def.timeoutHint } : {}),
        });
      }
    },
  });
}

export interface ElementRun<Args> extends PageRun<Args> {
  /** The ref as the snapshot spells it, and the element it names there. */
  ref: string;
  target: Locator;
  /** The family's timeout for one action on the element. */
  timeout: number;
}

export interface ElementToolDefinition<S extends z.ZodType> extends Omit<PageToolDefinition<S>, 'target' | 'run'> {
  run(run: ElementRun<z.infer<S>>): Promise<ToolReturn>;
}

/** A page tool that acts on the one element its required `ref` names in the latest snapshot. */
export function defineElementTool<S extends z.ZodType<{ ref: string }>>(
  deps: BrowserToolDeps,
  def: ElementToolDefinition<S>,
): Tool<z.infer<S>> {
  return definePageTool(deps, {
    ...def,
    target: (args) => args.ref,
    run: async (run) => {
      const { ref, target } = await resolveRefTarget(run.page, run.args.ref);
      return def.run({ ...run, ref, target, timeout: run.deps.manager.actionTimeoutMs });
    },
  });
}
