/**
 * The answer to one POST of a Streamable HTTP session that carries requests (MCP 2025-06-18,
 * "Sending Messages to the Server": the server answers either with one JSON body or with an SSE
 * stream, and every client must take both).
 *
 * It waits undecided. When the requests' answers are all that is sent, they go as one JSON body
 * with its length, written with the headers in one write. As soon as something else must reach the
 * client first (a progress notification, a request of the server's), or the answer is slow in
 * coming (a call waiting for a person), the reply becomes an SSE stream: what waited goes first,
 * then comment lines keep the stream alive until the answers arrive, so a client's idle timeout
 * (undici's body timeout is 300 s) does not end a call a person has not decided yet.
 */
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

export interface ReplyTimings {
  /** How long an answer may be in coming before the reply becomes a stream. */
  streamAfterMs: number;
  /** How often a stream with nothing to say sends a comment line. */
  keepAliveMs: number;
}

export const DEFAULT_REPLY_TIMINGS: ReplyTimings = { streamAfterMs: 5_000, keepAliveMs: 15_000 };

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
} as const;

export function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && 'id' in message;
}

export class PostReply {
  private readonly waiting: Set<RequestId>;
  private readonly answers: JSONRPCMessage[] = [];
  private streaming = false;
  private done = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly ids: readonly RequestId[],
    private readonly headers: Record<string, string>,
    private readonly timings: ReplyTimings,
    /** Called once the reply ended, answered or not (its connection closed first). */
    private readonly onEnd: (ids: readonly RequestId[]) => void,
  ) {
    this.waiting = new Set(ids);
    this.timer = setTimeout(() => this.stream(), timings.streamAfterMs);
    res.once('close', () => this.finish());
  }

  /** Takes one message for this POST's client: an answer to one of its requests, or anything sent while they run. */
  send(message: JSONRPCMessage): void {
    if (this.done) return;
    if (isAnswer(message)) {
      if (!this.waiting.delete(message.id)) return;
      if (!this.streaming) {
        this.answers.push(message);
        if (this.waiting.size === 0) this.answerAsJson();
        return;
      }
    } else if (!this.streaming) this.stream();
    this.res.write(sseEvent(message));
    if (this.waiting.size === 0) this.end();
  }

  /** The session ended: every request still waiting is answered with `error`, and the reply ends. */
  abandon(error: { code: number; message: string }): void {
    for (const id of [...this.waiting]) this.send({ jsonrpc: '2.0', id, error });
  }

  private answerAsJson(): void {
    const body = JSON.stringify(this.answers.length === 1 ? this.answers[0] : this.answers);
    this.res
      .writeHead(200, {
        ...this.headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      })
      .end(body);
    this.finish();
  }

  /** Becomes an SSE stream: the answers already in go first, and a comment line now and then keeps it open. */
  private stream(): void {
    if (this.done || this.streaming) return;
    this.streaming = true;
    clearTimeout(this.timer);
    this.res.writeHead(200, { ...this.headers, ...SSE_HEADERS });
    this.res.write(this.answers.length > 0 ? this.answers.map(sseEvent).join('') : ': waiting\n\n');
    this.answers.length = 0;
    this.timer = setInterval(() => this.res.write(': waiting\n\n'), this.timings.keepAliveMs);
  }

  private end(): void {
    this.res.end();
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.waiting.clear();
    this.onEnd(this.ids);
  }
}
