/**
 * Long text is shown a window at a time: the model gets a note saying where the window ends and
 * how to ask for the next one, instead of a silently cut page.
 */
import { ToolCallError } from '../core/result';

export interface TextWindow {
  text: string;
  start: number;
  end: number;
  total: number;
  /** Empty when the whole text fits. */
  note: string;
}

/** `readOn(end)` says how to get the rest, e.g. "Call web_fetch again with startChar=…". */
export function textWindow(full: string, start: number, maxChars: number, readOn: (end: number) => string): TextWindow {
  const total = full.length;
  if (start > 0 && start >= total) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `Invalid arguments: startChar ${start} is past the end of the text (${total} characters).`,
      {
        hint:
          total > 0
            ? `Use a startChar below ${total}, or 0 to start over.`
            : 'The content is empty; there is nothing more to read.',
        data: { fields: ['startChar'], total },
      },
    );
  }
  const end = Math.min(total, start + maxChars);
  const note =
    start === 0 && end === total
      ? ''
      : `[Showing characters ${start}–${end} of ${total}.${end < total ? ` ${readOn(end)}` : ''}]`;
  return { text: full.slice(start, end), start, end, total, note };
}

export function bytesNote(read: number, maxBytes: number): string {
  return `[The body is larger than the ${maxBytes}-byte limit; only the first ${read} bytes were read.]`;
}
