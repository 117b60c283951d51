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

export type ReadTable = (path: string) => string;

const readTable: ReadTable = (path) => readFileSync(path, 'utf8');

/** Port of a `/proc/net/tcp` address column (`0100007F:1F90` → 8080; IPv6 rows end the same way). */
function portOf(column: string | undefined): number {
  const hex = column?.split(':').pop();
  return hex ? Number.parseInt(hex, 16) : Number.NaN;
}

/** The uid owning the socket at local port `clientPort` connected to `serverPort`, from the table text. */
export function uidInTable(table: string, clientPort: number, serverPort: number): number | undefined {
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 8) continue;
    if (portOf(cols[1]) === clientPort && portOf(cols[2]) === serverPort) {
      const uid = Number(cols[7]);
      if (Number.isInteger(uid)) return uid;
    }
  }
  return undefined;
}

/**
 * The uid of the process that opened the connection, or undefined where the kernel does not say
 * (not Linux, no /proc, or the row is not found).
 */
export function peerUid(clientPort: number, serverPort: number, read: ReadTable = readTable): number | undefined {
  for (const path of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table: string;
    try {
      table = read(path);
    } catch {
      continue;
    }
    const uid = uidInTable(table, clientPort, serverPort);
    if (uid !== undefined) return uid;
  }
  return undefined;
}

/** How a server finds the uid behind a connection (injectable so tests can stand in another account). */
export type PeerUidLookup = (clientPort: number, serverPort: number) => number | undefined;

/**
 * Whether a connection comes from this process's own account; asked once per connection. Where the
 * kernel does not say (not Linux) the answer is yes: the bearer token stays the only key there.
 */
export function samePeerAccount(lookup: PeerUidLookup = peerUid): (socket: { remotePort?: number | undefined }, serverPort: number) => boolean {
  const own = process.getuid?.();
  const seen = new WeakMap<object, boolean>();
  return (socket, serverPort) => {
    const known = seen.get(socket);
    if (known !== undefined) return known;
    const uid = own === undefined || !socket.remotePort ? undefined : lookup(socket.remotePort, serverPort);
    const same = uid === undefined || uid === own;
    seen.set(socket, same);
    return same;
  };
}
