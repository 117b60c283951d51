/**
 * A tool call lives as long as the HTTP request that carries it. The SDK aborts a call's signal
 * when the client cancels it (notifications/cancelled, which its request timeout sends) or the
 * session closes, but not when the connection of the request itself ends early: a client that
 * disconnects, crashes or drops the stream. This ties each tools/call to the response it is
 * answered on: if the response closes before it was sent, the call is aborted at once, so a call
 * waiting for a person is withdrawn and can never run for a caller that is gone.
 */
import type { ServerResponse } from 'node:http';

export class OpenRequests {
  private readonly open = new Map<string, AbortController>();

  /** Watches the tools/call requests in a POST body until their response is sent or the connection ends. */
  watch(sessionLabel: string, body: unknown, res: ServerResponse): void {
    const ids = toolCallIds(body);
    if (ids.length === 0) return;
    const keys = ids.map((id) => keyOf(sessionLabel, id));
    for (const key of keys) this.open.set(key, new AbortController());
    res.once('close', () => {
      for (const key of keys) {
        if (!res.writableFinished) this.open.get(key)?.abort(new Error('the caller is gone: its request ended'));
        this.open.delete(key);
      }
    });
  }

  /** The signal that aborts when this call's request ends unanswered; undefined when not watched. */
  signalOf(sessionLabel: string, requestId: string | number): AbortSignal | undefined {
    return this.open.get(keyOf(sessionLabel, requestId))?.signal;
  }
}

function keyOf(sessionLabel: string, id: string | number): string {
  return `${sessionLabel}\u0000${typeof id}:${id}`;
}

function toolCallIds(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  const ids: Array<string | number> = [];
  for (const m of messages) {
    const msg = m as { method?: unknown; id?: unknown } | null;
    if (msg?.method === 'tools/call' && (typeof msg.id === 'string' || typeof msg.id === 'number')) ids.push(msg.id);
  }
  return ids;
}
