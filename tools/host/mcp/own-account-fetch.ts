/**
 * The HTTP client the stdio bridge talks to its host with: every connection it opens to a loopback
 * address is checked, once the TCP handshake is done and before a byte is written, against the
 * kernel's list of listening sockets, and dropped unless every socket listening on that port
 * belongs to this process's account. So the token never reaches a process of another account that
 * took the port, at start or later (a host killed while the bridge runs, its port taken before the
 * next call). Where the kernel does not say (not Linux), the host's proof (host-proof.ts) stands
 * alone.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { listenerUids } from '../http/listener-uid';
import type { ReadTable } from '../http/peer-uid';

export interface OwnerCheck {
  /** How the kernel's socket tables are read (tests stand in another account's listener). */
  readTable?: ReadTable;
  /** This account's uid; default process.getuid(). */
  uid?: number;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** Why a connection to a loopback `port` must not carry the token; undefined when it may. */
export function foreignListener(port: number, check: OwnerCheck = {}): string | undefined {
  const own = check.uid ?? process.getuid?.();
  if (own === undefined) return undefined;
  const uids = listenerUids(port, check.readTable);
  if (uids === undefined) return undefined;
  const other = uids.find((uid) => uid !== own);
  if (other !== undefined)
    return (
      `the process listening on port ${port} belongs to another account of this machine ` +
      `(uid ${other}, yours is ${own})`
    );
  if (uids.length === 0) return `no socket of your account listens on port ${port}`;
  return undefined;
}

export interface OwnAccountFetch {
  fetch: FetchLike;
  close(): Promise<void>;
}

export function ownAccountFetch(check: OwnerCheck = {}): OwnAccountFetch {
  const connect = buildConnector({});
  const agent = new Agent({
    // A call may wait minutes for a person's approval, and the event stream may stay quiet as long.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: (options, callback) =>
      connect(options, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no connection'), null);
        const refusal = isLoopback(socket.remoteAddress) ? foreignListener(socket.remotePort ?? 0, check) : undefined;
        if (refusal === undefined) return callback(null, socket);
        socket.destroy();
        callback(new Error(`${refusal}; nothing was sent to it`), null);
      }),
  });
  return {
    fetch: (url, init) =>
      undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher: agent,
      }) as unknown as Promise<Response>,
    // destroy, not close: close waits for the host's event stream, which never ends by itself.
    close: () => agent.destroy(),
  };
}

/** The message of a failed fetch: undici wraps the connection's own error as the cause. */
export function fetchFailure(e: unknown): string {
  const cause = (e as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return e instanceof Error ? e.message : String(e);
}
