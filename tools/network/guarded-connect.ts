/**
 * The network tools' default fetch (and the MCP client's): undici with a connector that judges,
 * at the moment a socket opens, every address it is about to connect to, with the port it connects
 * on. The check before the request (address-guard.ts) resolves the name once; a hostile DNS server
 * can answer a public address then and 169.254.169.254 or 127.0.0.1 a moment later (DNS
 * rebinding). Here the addresses judged are the ones connected to, so that second answer is refused
 * before a single byte is sent, and every spelling of an address (127.1, 0x7f.1, [::ffff:127.0.0.1],
 * a name that resolves to loopback) is judged as the address it is. undici is used rather than the
 * global fetch because only its Agent lets a caller give the socket its own lookup and connector.
 */
import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { isLoopbackName } from '../common/self-guard';
import {
  type DestinationPolicy,
  LOOPBACK_ANSWER,
  type LookupFunction,
  defaultLookup,
  destinationRefusal,
} from './address-guard';
import type { FetchLike } from './http-fetch';

/** A lookup that refuses (as its error) any answer the policy forbids for a connection on `port`. */
export function checkingLookup(
  policy: DestinationPolicy,
  port: number,
  lookup: LookupFunction = defaultLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    if (isLoopbackName(hostname)) {
      const refusal = destinationRefusal(hostname, port, LOOPBACK_ANSWER, policy);
      if (refusal) return callback(refusal, '', 0);
    }
    lookup(hostname, options, (err, address, family) => {
      if (err) {
        callback(err, address, family);
        return;
      }
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const refusal = destinationRefusal(hostname, port, addresses, policy);
      if (refusal) callback(refusal, address, family);
      else callback(null, address, family);
    });
  };
}

function portOf(options: buildConnector.Options): number {
  const given = Number(options.port);
  if (Number.isInteger(given) && given > 0) return given;
  return options.protocol === 'https:' ? 443 : 80;
}

/**
 * Opens every connection through `checkingLookup` for its port; a literal address, which is
 * connected to without a lookup, is judged here. So a redirect that undici follows itself (as the
 * MCP SDK's fetch does) is held to the same rule as the first request.
 */
export function guardedConnector(
  policy: DestinationPolicy,
  lookup: LookupFunction = defaultLookup,
): buildConnector.connector {
  const perPort = new Map<number, buildConnector.connector>();
  return (options, callback) => {
    const port = portOf(options);
    const literal = options.hostname.replace(/^\[|\]$/g, '');
    const refusal = isIP(literal) ? destinationRefusal(options.hostname, port, [literal], policy) : undefined;
    if (refusal) return callback(refusal, null);
    let connect = perPort.get(port);
    if (!connect) perPort.set(port, (connect = buildConnector({ lookup: checkingLookup(policy, port, lookup) })));
    connect(options, callback);
  };
}

/** A fetch whose connections all go through `guardedConnector`; one connection pool per tool family. */
export function connectGuardedFetch(policy: DestinationPolicy, lookup: LookupFunction = defaultLookup): FetchLike {
  const dispatcher = new Agent({ connect: guardedConnector(policy, lookup) });
  return (input, init) =>
    undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
}
