/**
 * terminal.wait: until a pattern appears in the terminal's output, or its program ends, or the
 * timeout. Patterns are JavaScript regular expressions run under the regex guard (bounded time),
 * tested against the output (escape sequences removed) from the cursor on, the newest 256 KB.
 */
import { z } from 'zod';
import { timeoutMs } from '../../core/fields';
import { ToolCallError, success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import { compileRegex, findMatches, regexTimeout } from '../../common/safe-regex';
import { BoundExceeded, DEFAULT_BOUND_MS, runBounded } from '../../common/time-bound';
import type { TerminalContext } from '../context';
import { TERMINAL_ID, perTerminal, terminalMetadata } from '../declare';
import { MAX_WAIT_MS } from '../limits';
import { terminalFor } from '../terminal-access';
import { terminalText } from '../terminal-text';

const WINDOW = 256 * 1024;
const TEST_EVERY_MS = 50;

/**
 * The byte offset in `data` just after a match found in its text, so the cursor a wait returns
 * points past the match and not past output that came after it: the shortest prefix whose text
 * already holds the match at the same place. Undefined when no prefix does (a line rewritten by a
 * carriage return), and the caller falls back to the end.
 */
export function byteEndOf(data: Buffer, index: number, match: string): number | undefined {
  const holds = (n: number) =>
    terminalText(data.subarray(0, n).toString('utf8')).slice(index, index + match.length) === match;
  if (!holds(data.length)) return undefined;
  let lo = 0;
  let hi = data.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function waitTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.wait',
    title: 'Wait for terminal output',
    description:
      "Waits until pattern (a JavaScript regex) shows in the terminal's output after cursor (your last observe's " +
      'end), or with exit until its program ends.',
    input: z.object({
      id: TERMINAL_ID,
      pattern: z.string().min(1).max(2000).optional().describe('e.g. "listening on port \\\\d+".'),
      flags: z.string().max(8).default('').describe('i, m, s, u.'),
      exit: z.boolean().default(false),
      cursor: z.number().int().min(0).optional(),
      timeoutMs: timeoutMs(100, MAX_WAIT_MS).default(30_000),
    }),
    metadata: terminalMetadata('LOW'),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'selfBounded',
    breakerScope: perTerminal,
    async run(args, call) {
      if ((args.pattern === undefined) === !args.exit)
        throw new ToolCallError('INVALID_ARGUMENT', 'Give exactly one of `pattern` or `exit: true`.', {
          data: { fields: ['pattern', 'exit'] },
        });
      if (/[gy]/.test(args.flags))
        throw new ToolCallError('INVALID_ARGUMENT', 'The flags g and y mean nothing here; use i, m, s or u.', {
          data: { fields: ['flags'] },
        });
      const re = args.pattern !== undefined ? compileRegex(args.pattern, args.flags) : undefined;
      const t = terminalFor(ctx, args.id, call);
      const from = args.cursor ?? t.observeCursor;
      const started = Date.now();
      const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const subs: Array<{ dispose(): void }> = [];
        let timer: ReturnType<typeof setTimeout> | undefined;
        let tester: ReturnType<typeof setTimeout> | undefined;
        let settled = false;
        const done = (value: Record<string, unknown> | Error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          clearTimeout(tester);
          for (const s of subs) s.dispose();
          call.signal.removeEventListener('abort', onAbort);
          if (value instanceof Error) reject(value);
          else resolve(value);
        };
        const test = () => {
          tester = undefined;
          if (!re) return;
          const read = t.log.read(Math.max(from, t.log.end - WINDOW), WINDOW);
          try {
            // A pattern is tested on the host's thread at most every 50 ms, each test cut off at the time bound.
            const text = terminalText(read.data.toString('utf8'));
            const found = matchBounded(re, text);
            if (found) {
              const end = byteEndOf(read.data, found.index, found.match);
              done({
                matched: true,
                match: found.match,
                groups: found.groups,
                cursor: end === undefined ? read.to : read.from + end,
              });
            }
          } catch (e) {
            done(e as Error);
          }
        };
        const schedule = () => {
          tester ??= setTimeout(test, TEST_EVERY_MS);
        };
        const onAbort = () => done({ matched: false, cancelled: true });
        call.signal.addEventListener('abort', onAbort, { once: true });
        timer = setTimeout(() => done({ matched: false, timedOut: true, cursor: t.log.end }), args.timeoutMs);
        subs.push(t.onExit((exit) => done({ matched: !re, exited: true, exitCode: exit.exitCode, cursor: t.log.end })));
        if (re) {
          subs.push(t.onOutput(schedule));
          test();
        }
        // The program may have ended before this wait began: those subscriptions were never needed.
        if (settled) for (const s of subs) s.dispose();
      });
      const waited = Date.now() - started;
      const text = answer.matched
        ? re
          ? `Matched after ${waited} ms: ${String(answer.match)}`
          : `The program ended (exit status ${String(answer.exitCode ?? 'unknown')}).`
        : answer.exited
          ? `The program ended (exit status ${String(answer.exitCode ?? 'unknown')}) before the pattern appeared.`
          : `Not seen within ${args.timeoutMs} ms.`;
      return success(text, { id: t.info.id, waitedMs: waited, ...answer });
    },
  });
}

/** The first match, or a pattern that runs past the time bound refused as the caller's to fix. */
function matchBounded(re: RegExp, text: string) {
  try {
    return runBounded(() => findMatches(re, text, 1)).matches[0];
  } catch (e) {
    if (e instanceof BoundExceeded) throw regexTimeout(DEFAULT_BOUND_MS);
    throw e;
  }
}
