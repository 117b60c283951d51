/**
 * wait (docs/architecture.md#tool-families, ≤ 300 s): pauses, e.g. for an app to settle between
 * steps of a batch. It is cancellable through ctx.signal at any moment, and a wait longer than a
 * few seconds reports progress each second so a client sees it is alive. The sleep is injected so
 * tests do not sleep.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { z } from 'zod';
import { failure, success } from '../core/result';
import { defineTool } from '../core/tool';

export const MAX_WAIT_SECONDS = 300;
/** Waits longer than this report progress. */
export const PROGRESS_AFTER_MS = 3000;
const TICK_MS = 1000;

/** Resolves after `ms`, rejects once `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  await sleepFor(ms, undefined, { signal });
};

export function waitTool(deps: { sleep?: Sleep } = {}) {
  const sleep = deps.sleep ?? realSleep;
  return defineTool({
    id: 'wait',
    title: 'Wait',
    description: 'Waits some seconds, e.g. for an app or a page to settle.',
    input: z.object({
      seconds: z.number().min(0).max(MAX_WAIT_SECONDS),
      reason: z.string().max(200).optional().describe('Shown in progress notes.'),
    }),
    metadata: { category: 'orchestration', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    // The wait bounds itself (300 s); the quickRead preset's 30 s timeout would cut long waits.
    runPolicy: 'selfBounded',
    async run(args, ctx) {
      const totalMs = Math.round(args.seconds * 1000);
      const about = args.reason ? ` (${args.reason})` : '';
      let waitedMs = 0;
      try {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        if (totalMs <= PROGRESS_AFTER_MS) {
          await sleep(totalMs, ctx.signal);
          waitedMs = totalMs;
        } else {
          while (waitedMs < totalMs) {
            const chunk = Math.min(TICK_MS, totalMs - waitedMs);
            await sleep(chunk, ctx.signal);
            waitedMs += chunk;
            ctx.progress({
              progress: waitedMs / 1000,
              total: args.seconds,
              message: `waited ${Math.round(waitedMs / 1000)} of ${args.seconds} s${about}`,
            });
          }
        }
      } catch (e) {
        if (!ctx.signal.aborted) throw e;
        return failure('EXECUTION_FAILED', `The wait was cancelled after ${waitedMs / 1000} of ${args.seconds} s.`, {
          hint: 'The wait was cancelled on purpose; do not retry it unless you still need to wait.',
          data: { waitedMs },
        });
      }
      return success(`Waited ${args.seconds} s${about}.`, { waitedMs });
    },
  });
}
