/**
 * The stdio bridge's fast way to its host: the host's local socket (mcp-socket.ts) in the data
 * dir, relayed byte for byte to and from stdio, so a stdio client's call costs one local stream
 * each way instead of an HTTP request. The token crosses only to a socket this account owns, in a
 * directory nobody else can write to (so nobody else can have put it there); anything else and the
 * bridge uses HTTP, with its own checks (prove-host.ts). Once the host is gone, the calls it left
 * unanswered, and every call after, end as the same tool error as over HTTP (stdio-bridge.ts).
 */
import { lstatSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { hostGoneResult } from './stdio-bridge';

export type SocketOpening =
  | { ok: true; socket: Socket; session: string; leftover: Buffer }
  /** `refused`: the host answered and said no (a bad token); otherwise there is no usable socket here. */
  | { ok: false; refused: boolean; message: string };

/** Why the token must not be sent to the socket at `path`; undefined when it may. */
export function socketTrust(path: string, uid = process.getuid?.()): string | undefined {
  if (uid === undefined) return 'this platform has no socket owners to check';
  try {
    const dir = lstatSync(dirname(path));
    if (!dir.isDirectory() || dir.uid !== uid) return `${dirname(path)} is not a directory of this account`;
    if ((dir.mode & 0o022) !== 0) return `${dirname(path)} is writable by others`;
    const file = lstatSync(path);
    if (!file.isSocket()) return `${path} is not a socket`;
    if (file.uid !== uid) return `${path} belongs to another account (uid ${file.uid})`;
  } catch {
    return `${path} does not exist`;
  }
  return undefined;
}

/** Connects, says hello with the token, and waits for the host's answer line. */
export function openHostSocket(path: string, token: string, timeoutMs = 5_000): Promise<SocketOpening> {
  const distrust = socketTrust(path);
  if (distrust) return Promise.resolve({ ok: false, refused: false, message: distrust });
  return new Promise((resolve) => {
    const socket = connect(path);
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (outcome: SocketOpening) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off('data', onData);
      if (!outcome.ok) socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ ok: false, refused: false, message: 'the host did not answer on its socket' }),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(0x0a);
      if (end < 0) return;
      socket.pause();
      let reply: { ok?: unknown; session?: unknown; error?: unknown };
      try {
        reply = JSON.parse(received.subarray(0, end).toString('utf8')) as typeof reply;
      } catch {
        return finish({ ok: false, refused: false, message: 'the socket does not answer as a Toolgate host' });
      }
      if (reply.ok === true && typeof reply.session === 'string')
        return finish({ ok: true, socket, session: reply.session, leftover: received.subarray(end + 1) });
      finish({ ok: false, refused: true, message: String(reply.error ?? 'refused') });
    };
    socket.on('data', onData);
    socket.once('connect', () => socket.write(`${JSON.stringify({ token })}\n`));
    socket.once('error', (e: Error) => finish({ ok: false, refused: false, message: e.message }));
    socket.once('close', () => finish({ ok: false, refused: false, message: 'the host closed its socket' }));
  });
}

type Id = string | number;
interface Message {
  method?: unknown;
  id?: unknown;
}

function isId(v: unknown): v is Id {
  return typeof v === 'string' || typeof v === 'number';
}

const TAIL_BYTES = 256;

/**
 * Splits a byte stream into lines: each line whole when it is at most `keep` bytes (else
 * undefined: it is not parsed), and its last bytes, which hold the id of an answer however long.
 */
class Lines {
  private parts: Buffer[] = [];
  private size = 0;
  private tail = Buffer.alloc(0);

  constructor(
    private readonly keep: number,
    private readonly onLine: (line: string | undefined, tail: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
      this.add(chunk.subarray(from, nl));
      const whole = this.size <= this.keep ? Buffer.concat(this.parts).toString('utf8') : undefined;
      this.onLine(whole, this.tail.toString('utf8'));
      this.parts = [];
      this.size = 0;
      this.tail = Buffer.alloc(0);
      from = nl + 1;
    }
    if (from < chunk.length) this.add(chunk.subarray(from));
  }

  private add(part: Buffer): void {
    this.size += part.length;
    if (this.size <= this.keep) this.parts.push(part);
    else this.parts = [];
    const joined = Buffer.concat([this.tail, part]);
    this.tail = joined.subarray(Math.max(0, joined.length - TAIL_BYTES));
  }
}

function messagesOf(line: string | undefined): Message[] {
  if (line === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(line);
    return (Array.isArray(parsed) ? parsed : [parsed]).filter((m): m is Message => typeof m === 'object' && m !== null);
  } catch {
    return [];
  }
}

/** The largest request line the bridge reads to keep track of a call (bigger ones are relayed, not tracked). */
const TRACKED_LINE_BYTES = 1024 * 1024;
/** The id of a result line `{"result":…,"jsonrpc":"2.0","id":ID}` (the SDK's order), found at its end. */
const RESULT_ID = /,"id":(-?\d+|"(?:[^"\\]|\\.)*")\}\s*$/;

/**
 * Relays `input` to the socket and the socket to `output`, each with back-pressure. It keeps track
 * of the tools/call requests the host has not answered, so that if the host goes away they end
 * as tool errors; from then on it answers every request itself.
 */
export function relayStdio(
  socket: Socket,
  leftover: Buffer,
  input: Readable,
  output: Writable,
): { close(): Promise<void> } {
  const pending = new Set<string>();
  const key = (id: Id) => `${typeof id}:${id}`;
  let hostGone = false;
  /** The bridge is ending (its client left): nothing more is answered. */
  let closing = false;
  const reply = (message: Record<string, unknown>) => output.write(`${JSON.stringify(message)}\n`);
  const answerAlone = (m: Message) => {
    if (!isId(m.id) || typeof m.method !== 'string') return;
    if (m.method === 'tools/call') reply({ jsonrpc: '2.0', id: m.id, result: hostGoneResult() });
    else if (m.method === 'ping') reply({ jsonrpc: '2.0', id: m.id, result: {} });
    else reply({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message: 'The Toolgate host stopped.' } });
  };

  const requests = new Lines(TRACKED_LINE_BYTES, (line) => {
    for (const m of messagesOf(line)) {
      if (hostGone) answerAlone(m);
      else if (m.method === 'tools/call' && isId(m.id)) pending.add(key(m.id));
    }
  });
  // A result is known by its end, where the SDK puts its id (a screenshot's line is megabytes, and
  // parsing every answer would cost each call; the host sends no requests of its own, so a long line
  // ending in an id is a result); anything else that is short (an error) is parsed.
  const answers = new Lines(4 * 1024, (line, tail) => {
    const id = RESULT_ID.exec(tail)?.[1];
    if (id !== undefined && (line === undefined || line.startsWith('{"result":'))) {
      pending.delete(key(JSON.parse(id) as Id));
      return;
    }
    for (const m of messagesOf(line)) if (isId(m.id) && m.method === undefined) pending.delete(key(m.id));
  });
  // Each chunk is passed on before it is looked at: the bookkeeping runs in the same turn, so no
  // answer can arrive before its request is tracked, and it adds nothing to the way through.
  const onAnswer = (chunk: Buffer) => {
    if (!output.write(chunk)) socket.pause();
    answers.push(chunk);
  };
  output.on('drain', () => socket.resume());
  socket.on('data', onAnswer);
  socket.on('drain', () => input.resume());
  socket.once('close', () => {
    hostGone = true;
    if (closing) return;
    for (const k of pending) {
      const id = k.startsWith('number:') ? Number(k.slice(7)) : k.slice(7);
      reply({ jsonrpc: '2.0', id, result: hostGoneResult() });
    }
    pending.clear();
    input.resume();
  });
  socket.on('error', () => undefined);
  if (leftover.length > 0) onAnswer(leftover);
  socket.resume();

  input.on('data', (chunk: Buffer) => {
    if (!hostGone && !socket.write(chunk)) input.pause();
    requests.push(chunk);
  });
  return {
    async close() {
      closing = true;
      if (hostGone) return;
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.end();
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 2000).unref();
      });
    },
  };
}
