/**
 * Who owns the sockets listening on a local TCP port (Linux). A client about to send the token to
 * 127.0.0.1:PORT asks this first: once the host that wrote the port down is gone, any account of
 * the machine may take the port. The kernel lists every listening socket (state 0A) with its
 * owner's uid in /proc/net/tcp and /proc/net/tcp6, the same tables peer-uid.ts reads for the
 * client end of a connection.
 */
import { type ReadTable, portOf, readTable } from './peer-uid';

const LISTEN = '0A';

/**
 * The uids of every socket listening on `port`, on any address (empty: nothing listens there), or
 * undefined where the kernel does not say (not Linux).
 */
export function listenerUids(port: number, read: ReadTable = readTable): number[] | undefined {
  const uids: number[] = [];
  let readable = false;
  for (const path of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table: string;
    try {
      table = read(path);
      readable = true;
    } catch {
      continue; // no such table here (not Linux, or no IPv6)
    }
    for (const line of table.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 8 || cols[3] !== LISTEN || portOf(cols[1]) !== port) continue;
      const uid = Number(cols[7]);
      if (Number.isInteger(uid)) uids.push(uid);
    }
  }
  return readable ? uids : undefined;
}
