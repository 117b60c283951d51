/**
 * Toolgate itself, as no tool may reach it. The host's HTTP server (the UI, its API, the MCP
 * endpoint) listens on loopback; a tool that loaded it could click "Approve once" on its own
 * pending call or read the token. Its data dir holds the token, the database, the logs and
 * host.json. One object knows both, so every family that could be steered there (the browser, the
 * network tools, the MCP client's HTTP transport) asks the same question and gets the same answer,
 * whatever the public-web-only setting says.
 *
 * The host's composition root creates it with the data dir and adds the port once the server
 * listens (tools/host/host.ts); families built without a host get one that knows nothing.
 */
import { realpathSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolCallError } from '../core/result';

/**
 * Addresses that lead to this machine from this machine: all of loopback, the unspecified
 * address (a connection to 0.0.0.0 or :: lands on loopback), and IPv4-mapped forms of either
 * (Node's BlockList matches ::ffff:127.0.0.1 and ::ffff:7f00:1 against the IPv4 rule).
 */
const THIS_MACHINE = new BlockList();
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_MACHINE.addSubnet('0.0.0.0', 8, 'ipv4');
THIS_MACHINE.addAddress('::1', 'ipv6');
THIS_MACHINE.addAddress('::', 'ipv6');

/**
 * An address literal as URLs and sockets spell it ([::1], fe80::1%eth0, ::127.0.0.1), in a form BlockList can judge.
 */
export function canonicalAddress(raw: string): { address: string; type: 'ipv4' | 'ipv6' } | undefined {
  const bare = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return { address: bare, type: 'ipv4' };
  if (version !== 6) return undefined;
  const dotted = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (dotted?.[1]) return { address: dotted[1], type: 'ipv4' };
  // Mapped (::ffff:7f00:1) and the deprecated IPv4-compatible form (::7f00:1), as URLs print them.
  const compact = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const compatible = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(compact);
  if (compatible?.[1] && compatible[2]) {
    const hi = Number.parseInt(compatible[1], 16);
    const lo = Number.parseInt(compatible[2], 16);
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, type: 'ipv4' };
  }
  return { address: bare, type: 'ipv6' };
}

/**
 * Names that mean loopback without asking DNS (RFC 6761; Chromium answers them itself): localhost, *.localhost, with or
 * without the final dot.
 */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** True when a connection from this machine to `address` stays on this machine. */
export function isThisMachine(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (!canonical) return false;
  if (THIS_MACHINE.check(canonical.address, canonical.type)) return true;
  for (const list of Object.values(networkInterfaces())) {
    for (const itf of list ?? []) {
      const own = canonicalAddress(itf.address);
      if (own && own.type === canonical.type && own.address.toLowerCase() === canonical.address.toLowerCase())
        return true;
    }
  }
  return false;
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `path`: symbolic links resolved on the part that exists, the rest appended as named. */
export function realPathOf(path: string): string {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(current), ...missing);
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      missing.unshift(basename(current));
      current = parent;
    }
  }
}

export class SelfGuard {
  private readonly portSet = new Set<number>();
  private readonly dataDir: string | undefined;

  /** `dataDir`: the host's data dir; its `workspace` folder is the tools' own, everything else in it is Toolgate's. */
  constructor(options: { dataDir?: string; ports?: readonly number[] } = {}) {
    this.dataDir = options.dataDir;
    for (const port of options.ports ?? []) this.addPort(port);
  }

  /** A port Toolgate listens on (the host adds its HTTP port once the server listens). */
  addPort(port: number): void {
    if (Number.isInteger(port) && port > 0 && port < 65536) this.portSet.add(port);
  }

  get ports(): number[] {
    return [...this.portSet];
  }

  isOwnPort(port: number): boolean {
    return this.portSet.has(port);
  }

  /** True when connecting to `address` (an IP literal, any spelling) on `port` would reach Toolgate. */
  reaches(address: string, port: number): boolean {
    return this.portSet.has(port) && isThisMachine(address);
  }

  /**
   * The same for a host name: loopback names without DNS; other names only by the addresses they resolve to
   * (`reaches`).
   */
  reachesName(hostname: string, port: number): boolean {
    if (!this.portSet.has(port)) return false;
    return isLoopbackName(hostname) || (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0 && isThisMachine(hostname));
  }

  /**
   * True for a path of Toolgate's own files: anything in the data dir but its workspace folder
   * (token, toolgate.db and its -wal/-shm, logs, host.json, the browser profile), on real paths,
   * so it holds even when the workspace root is set to a folder that contains the data dir.
   */
  ownsPath(path: string): boolean {
    if (!this.dataDir) return false;
    const real = realPathOf(path);
    const root = realPathOf(this.dataDir);
    return inside(root, real) && !inside(realPathOf(join(this.dataDir, 'workspace')), real);
  }

  /** The refusal every family gives; `where` names the host and port (never a path or query). */
  refusal(where: string): ToolCallError {
    return new ToolCallError('PERMISSION_DENIED', `Refused: ${where} is Toolgate itself; tools may not reach it.`, {
      hint:
        "Do not retry with another spelling or name of this computer: Toolgate's window, approvals, settings " +
        'and token belong to the person using it. Ask the user to act there.',
      data: { gate: 'self' },
    });
  }

  /** The refusal for one of Toolgate's own files. */
  fileRefusal(): ToolCallError {
    return new ToolCallError(
      'PERMISSION_DENIED',
      "Refused: that file is one of Toolgate's own (its token, database, logs or settings); tools may not read it.",
      { hint: 'Do not retry; only files in the workspace are open to tools.', data: { gate: 'self' } },
    );
  }
}

/** The port a URL connects to: its own or its scheme's default. */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80;
}
