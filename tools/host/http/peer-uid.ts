/**
 * Which local user is on the other end of a loopback TCP connection (Linux). The host listens on
 * 127.0.0.1 only, but every account on the machine can reach that; the token file is readable by
 * its owner only, so the one thing that must not happen is the UI handing the token (its session
 * cookie) or a tool call to a process of another account. The kernel lists every TCP socket with
 * its owner's uid in /proc/net/tcp; the client's socket is the row whose local port is the
 * connection's remote port and whose remote port is ours. No library reads this table; the format
 * is the kernel's (Documentation/networking/proc_net_tcp.rst).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export type ReadTable = (path: string) => string;

export const readTable: ReadTable = (path) => readFileSync(path, 'utf8');

/** How the host reads the tables: off its event loop. */
export type ReadTableAsync = (path: string) => string | Promise<string>;

/**
 * The kernel writes the table by walking its whole socket hash, which takes from a few to tens of
 * milliseconds on a busy machine, so the host reads it on libuv's threads, not its event loop.
 */
export const readTableOffLoop: ReadTableAsync = (path) => readFile(path, 'utf8');

/** Port of a `/proc/net/tcp` address column (`0100007F:1F90` → 8080; IPv6 rows end the same way). */
export function portOf(column: string | undefined): number {
  const hex = column?.split(':').pop();
  return hex ? Number.parseInt(hex, 16) : Number.NaN;
}

/** Every connection in a table, as "clientPort:serverPort" → uid of its owner (established ones win). */
export function tableOwners(table: string, into = new Map<string, number>()): Map<string, number> {
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 8) continue;
    const uid = Number(cols[7]);
    if (!Number.isInteger(uid)) continue;
    const key = `${portOf(cols[1])}:${portOf(cols[2])}`;
    if (!into.has(key) || cols[3] === '01') into.set(key, uid);
  }
  return into;
}

/**
 * A lookup that reads the kernel's tables at most once per burst: the parsed table is reused while
 * it is younger than `maxAgeMs` and holds the connection asked about, and read again otherwise (a
 * connection opened after the last read is not in it yet). A burst of a thousand connections costs
 * a few reads instead of a thousand (each read is linear in the number of sockets). One read runs
 * at a time; a lookup waits for it, and when the connection is missing from a read that began
 * before the lookup did, for the next one.
 */
export function cachedPeerUid(
  read: ReadTableAsync = readTableOffLoop,
  maxAgeMs = 250,
  now: () => number = Date.now,
): PeerUidLookup {
  let owners: Map<string, number> | undefined;
  let readAt = 0;
  let readable = true;
  /** Reads begun so far, and which of them `owners` comes from. */
  let begun = 0;
  let ownersRead = 0;
  let reading: Promise<void> | undefined;
  const load = (): Promise<void> => {
    const which = ++begun;
    const done = (async () => {
      const fresh = new Map<string, number>();
      let any = false;
      for (const path of ['/proc/net/tcp', '/proc/net/tcp6']) {
        try {
          tableOwners(await read(path), fresh);
          any = true;
        } catch {
          // no such table here (not Linux, or no IPv6)
        }
      }
      owners = fresh;
      readable = any;
      readAt = now();
      ownersRead = which;
    })().finally(() => {
      if (reading === done) reading = undefined;
    });
    reading = done;
    return done;
  };
  return async (clientPort, serverPort) => {
    const key = `${clientPort}:${serverPort}`;
    // Any read begun from here on was begun after the connection was accepted, so it lists it.
    const sufficient = begun + 1;
    for (;;) {
      const known = owners !== undefined && now() - readAt <= maxAgeMs && (!readable || owners.has(key));
      if (known || ownersRead >= sufficient) return owners?.get(key);
      await (reading ?? load());
    }
  };
}

/** How a server finds the uid behind a connection (injectable so tests can stand in another account). */
export type PeerUidLookup = (
  clientPort: number,
  serverPort: number,
) => number | undefined | Promise<number | undefined>;

/**
 * Whether a connection comes from this process's own account; asked once per connection. Where the
 * kernel does not say (not Linux) the answer is yes: the bearer token stays the only key there.
 */
export function samePeerAccount(
  lookup: PeerUidLookup = cachedPeerUid(),
): (socket: { remotePort?: number | undefined }, serverPort: number) => Promise<boolean> {
  const own = process.getuid?.();
  const seen = new WeakMap<object, Promise<boolean>>();
  return (socket, serverPort) => {
    let same = seen.get(socket);
    if (same === undefined) {
      const remotePort = socket.remotePort;
      same =
        own === undefined || !remotePort
          ? Promise.resolve(true)
          : Promise.resolve(lookup(remotePort, serverPort)).then((uid) => uid === undefined || uid === own);
      seen.set(socket, same);
    }
    return same;
  };
}
