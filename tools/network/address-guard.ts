/**
 * Where the network tools may connect. Toolgate itself (its own port on any address of this
 * machine, see tools/common/self-guard.ts) and link-local addresses (169.254.0.0/16, fe80::/10:
 * cloud metadata services, which hand out credentials) are always refused; loopback and private
 * networks are refused too when the host asks for it (a setting), for agents that must only reach
 * the public web. Every hop is checked, redirects included, on the addresses the name resolves to,
 * and checked again on the addresses the socket actually connects to (see guarded-connect.ts), so a
 * name that changes its answer between the two (DNS rebinding) gains nothing.
 * Node's own BlockList does the matching.
 */
import { type LookupAddress, type LookupOptions, lookup as systemLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { SelfGuard, canonicalAddress, effectivePort, isLoopbackName } from '../common/self-guard';
import { ToolCallError } from '../core/result';
import type { FetchLike } from './http-fetch';

const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/** What a destination is judged against; one per family, built by the host's wiring. */
export interface DestinationPolicy {
  /** Also refuse loopback and private networks (the public-web-only setting), read at each check. */
  blockPrivate(): boolean;
  /** Toolgate itself: always refused. */
  self: SelfGuard;
}

export function destinationPolicy(
  blockPrivate: () => boolean = () => false,
  self: SelfGuard = new SelfGuard(),
): DestinationPolicy {
  return { blockPrivate, self };
}

/** `dns.lookup`'s callback form, which is also what `net.connect` accepts as its `lookup` option. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export const defaultLookup: LookupFunction = (hostname, options, callback) =>
  systemLookup(hostname, options, callback as never);

/** The refusal for the first address of `addresses` the policy forbids, if any. */
export function destinationRefusal(
  hostname: string,
  port: number,
  addresses: readonly string[],
  policy: DestinationPolicy,
): ToolCallError | undefined {
  const blockPrivate = policy.blockPrivate();
  for (const raw of addresses) {
    if (policy.self.reaches(raw, port)) return policy.self.refusal(`${hostname}:${port}`);
    const canonical = canonicalAddress(raw);
    if (!canonical) continue;
    const { address, type } = canonical;
    if (LINK_LOCAL.check(address, type)) {
      return new ToolCallError(
        'PERMISSION_DENIED',
        `Refused: ${hostname} is a link-local address (${address}), ` +
          'where cloud metadata services hand out credentials.',
        {
          hint: 'Do not retry; Toolgate never lets the network tools reach link-local addresses.',
          data: { gate: 'network', address },
        },
      );
    }
    if (blockPrivate && PRIVATE.check(address, type)) {
      return new ToolCallError(
        'PERMISSION_DENIED',
        `Refused: ${hostname} is a loopback or private-network address ` +
          `(${address}), and this host only allows the public web.`,
        {
          hint:
            'Do not retry; the "networkBlockPrivateAddresses" setting keeps the network tools on the public ' +
            'web. Ask the user if this destination is needed.',
          data: { gate: 'network', address },
        },
      );
    }
  }
  return undefined;
}

function resolveAll(host: string, lookup: LookupFunction): Promise<string[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true }, (err, found) => {
      if (err) reject(err);
      else resolve(Array.isArray(found) ? found.map((a) => a.address) : [found]);
    });
  });
}

/** Names that mean loopback are judged as loopback without asking DNS, as browsers do. */
export const LOOPBACK_ANSWER = ['127.0.0.1', '::1'];

/** Checks the URL's host before any request is made, so a refusal names the URL's own host name. */
export async function assertAllowedDestination(
  url: URL,
  policy: DestinationPolicy,
  lookup: LookupFunction = defaultLookup,
): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else if (isLoopbackName(host)) addresses = LOOPBACK_ANSWER;
  else {
    try {
      addresses = await resolveAll(host, lookup);
    } catch {
      return; // fetch reports the unresolvable name itself, with its usual error
    }
  }
  const refusal = destinationRefusal(url.hostname, effectivePort(url), addresses, policy);
  if (refusal) throw refusal;
}

/** A fetch that checks every destination before connecting (fetchWithRedirects calls it once per hop). */
export function guardedFetch(
  inner: FetchLike,
  policy: DestinationPolicy,
  lookup: LookupFunction = defaultLookup,
): FetchLike {
  return async (input, init) => {
    await assertAllowedDestination(input instanceof URL ? input : new URL(input), policy, lookup);
    return inner(input, init);
  };
}
