/**
 * browser_click: click an element by ref, and the way to answer a modal dialog
 * (`{"dialog": "accept"}` / `{"dialog": "dismiss"}`, `promptText` for a prompt).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { ToolCallError, normalizeResult, renderResult, success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import type { InterruptedCall } from '../dialogs';
import { briefPlaywrightMessage } from '../errors';
import { describeRef, resolveRefTarget } from '../snapshot/refs';
import { refField, whereNow } from './common';
import type { Locator } from 'playwright-core';

const POPUP_GRACE_MS = 150;

/**
 * Whether the element's markup opens a new tab when clicked: a link, or a form's button, whose
 * `target` names another browsing context (`_blank` or a name; not `_self`, `_parent`, `_top`).
 * A script's window.open cannot be told beforehand; its tab is caught within the grace time.
 */
function opensNewTab(target: Locator): Promise<boolean> {
  return target
    .evaluate(
      (el) => {
        const link = el.closest('a[href], area[href]');
        const button = el.closest('button, input') as HTMLButtonElement | HTMLInputElement | null;
        const named = link ? link.getAttribute('target') : (button?.form?.getAttribute('target') ?? null);
        const t = (named ?? '').trim().toLowerCase();
        return t !== '' && t !== '_self' && t !== '_parent' && t !== '_top';
      },
      undefined,
      { timeout: 1_000 },
    )
    .catch(() => false);
}

/** How the call that the dialog interrupted ended once the dialog was answered (it may have navigated). */
async function outcomeOf(call: InterruptedCall, waitMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), waitMs)));
  try {
    const ended = await Promise.race([
      call.work.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      late,
    ]);
    if (ended === 'late') return `The interrupted ${call.tool} is still running.`;
    if ('error' in ended) return `The interrupted ${call.tool} then failed: ${briefPlaywrightMessage(ended.error)}`;
    return `The interrupted ${call.tool} then finished: ${renderResult(normalizeResult(ended.value, call.tool))}`;
  } finally {
    clearTimeout(timer);
  }
}

const input = z.object({
  ref: refField.optional(),
  button: z.enum(['left', 'right', 'middle']).default('left'),
  doubleClick: z.boolean().default(false),
  modifiers: z.array(z.enum(['Alt', 'Control', 'Meta', 'Shift'])).optional(),
  dialog: z.enum(['accept', 'dismiss']).optional().describe('Answer the open dialog (first).'),
  promptText: z.string().optional().describe('For a prompt() dialog.'),
});

export function browserClick(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_click',
    title: 'Click an element',
    description: 'Clicks an element by ref. An open alert, confirm or prompt is answered with dialog (and promptText).',
    input,
    metadata: { category: 'browser', risk: 'MEDIUM', tags: ['browser', 'web', 'input'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    target: (args) => args.ref ?? `dialog:${args.dialog ?? ''}`,
    allowedWithDialog: (args) => args.dialog !== undefined,
    async run({ args, ctx, page, deps: d }) {
      if (args.ref === undefined && args.dialog === undefined) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          'Give "ref" (the element to click) or "dialog" (to answer an open dialog), or both.',
          { data: { fields: ['ref', 'dialog'] } },
        );
      }
      if (args.promptText !== undefined && args.dialog !== 'accept') {
        throw new ToolCallError('INVALID_ARGUMENT', '"promptText" is only used together with "dialog": "accept".', {
          data: { fields: ['promptText'] },
        });
      }
      const said: string[] = [];
      if (args.dialog) {
        const info = await d.manager.dialogs.handle(page, args.dialog === 'accept', args.promptText);
        said.push(
          `${args.dialog === 'accept' ? 'Accepted' : 'Dismissed'} the ${info.type} ` +
            `dialog${info.message ? ` ${JSON.stringify(info.message.slice(0, 200))}` : ''}.`,
        );
        const resumed = d.manager.dialogs.takeInterrupted(page);
        if (resumed) said.push(await outcomeOf(resumed, d.manager.navigationTimeoutMs));
      }
      if (args.ref !== undefined) {
        const { ref, target } = await resolveRefTarget(page, args.ref);
        const options = {
          button: args.button,
          timeout: d.manager.actionTimeoutMs,
          signal: ctx.signal,
          ...(args.modifiers ? { modifiers: args.modifiers } : {}),
        };
        const popup = page.waitForEvent('popup', { timeout: d.manager.actionTimeoutMs + POPUP_GRACE_MS });
        popup.catch(() => undefined);
        const download = page.waitForEvent('download', { timeout: d.manager.actionTimeoutMs + POPUP_GRACE_MS });
        download.catch(() => undefined);
        // Asked alongside the click (read-only, answered before the click lands), not before it.
        const newTab = opensNewTab(target);
        if (args.doubleClick) await target.dblclick(options);
        else await target.click(options);
        // A tab or a download the click starts arrives a moment later; give it that moment so the answer can say
        // so: for a link or form that names another target, however long the tab takes to open (a busy machine).
        const wait = (await newTab) ? d.manager.actionTimeoutMs : POPUP_GRACE_MS;
        await Promise.race([popup, download, delay(wait)]).catch(() => undefined);
        said.push(`Clicked ${describeRef(page, ref)}.`);
      }
      const active = d.manager.activePage();
      if (active && active !== page) said.push(`A new tab opened and is now active: ${await whereNow(active)}`);
      else if (!page.isClosed()) said.push(await whereNow(page));
      return success(said.join(' '));
    },
  });
}
