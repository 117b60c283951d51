/**
 * Playwright errors → model-readable ToolCallErrors. Playwright's messages carry a call log whose
 * last lines say why an action waited ("element is not enabled", "element is outside of the
 * viewport"); those lines are kept, the rest is noise for a model.
 */
import { ToolCallError, isToolCallError } from '../core/result';
import type { BrowserLoss } from './browser-manager';

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The first line plus the last few call-log lines, without ANSI colours. */
export function briefPlaywrightMessage(e: unknown, maxLogLines = 3): string {
  // eslint-disable-next-line no-control-regex
  const lines = errorText(e)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this removes
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n');
  const first = (lines[0] ?? '').replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '');
  const logStart = lines.findIndex((l) => l.trim() === 'Call log:');
  const log =
    logStart < 0
      ? []
      : lines
          .slice(logStart + 1)
          .map((l) => l.trim().replace(/^- /, ''))
          .filter(Boolean)
          .slice(-maxLogLines);
  return [first, ...log].join(' | ').slice(0, 700);
}

export function isTimeoutError(e: unknown): boolean {
  return e instanceof Error && e.name === 'TimeoutError';
}

const GONE = new RegExp(
  [
    'Target crashed',
    'Page crashed',
    'has been closed',
    'Target closed',
    'Browser closed',
    'browser has disconnected',
    'Session closed',
    'net::ERR_ABORTED',
  ].join('|'),
  'i',
);

/** An error that means the tab or browser went away under the call. */
export function isGoneError(e: unknown): boolean {
  return GONE.test(errorText(e));
}

/**
 * The notice that the tab or browser went away: said once, and never retried by the pipeline
 * (`retryable: false`), since the retry would relaunch and answer from a blank page, hiding that
 * the tabs and page state are lost.
 */
export function lossError(loss: BrowserLoss): ToolCallError {
  const where = loss.url && loss.url !== 'about:blank' ? ` (it was on ${loss.url})` : '';
  if (loss.kind === 'crash') {
    return new ToolCallError(
      'EXECUTION_FAILED',
      `The browser tab crashed${where}. A fresh tab opens on your next browser call; the page state is lost.`,
      {
        hint: 'Navigate again with browser_navigate, then take a new browser_snapshot before using refs.',
        data: { loss: loss.kind, retryable: false },
      },
    );
  }
  return new ToolCallError(
    'EXECUTION_FAILED',
    `The browser was closed${where}. It is relaunched on your next browser call; tabs and page state are lost.`,
    {
      hint: 'Navigate again with browser_navigate, then take a new browser_snapshot before using refs.',
      data: { loss: loss.kind, retryable: false },
    },
  );
}

export interface ErrorContext {
  /** What was being done, e.g. "Clicking e12 (button \"Save\")". */
  action: string;
  /** Hint for a timeout of this particular action. */
  timeoutHint?: string;
}

export function toToolCallError(e: unknown, context: ErrorContext): ToolCallError {
  if (isToolCallError(e)) return e;
  const brief = briefPlaywrightMessage(e);
  if (isTimeoutError(e)) {
    return new ToolCallError('TIMEOUT', `${context.action} timed out: ${brief}`, {
      hint:
        context.timeoutHint ??
        'The element exists but did not become actionable (hidden, disabled, covered or moving). Take a new ' +
          'browser_snapshot, check its state, scroll to it, or pick another element.',
    });
  }
  const net = /net::(ERR_[A-Z_]+)/.exec(errorText(e));
  if (net) {
    return new ToolCallError('EXECUTION_FAILED', `${context.action} failed: ${net[1]}.`, {
      hint:
        'Check that the URL is right and the server is reachable ' +
        '(name resolves, port listens); do not retry blindly.',
      data: { net: net[1] },
    });
  }
  return new ToolCallError('EXECUTION_FAILED', `${context.action} failed: ${brief}`);
}
