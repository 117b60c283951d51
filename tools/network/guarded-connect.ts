/**
 * The network tools' default fetch (and the MCP client's): undici with a connector that judges,
 * at the moment a socket opens, every address it is about to connect to. The check before the
 * request (address-guard.ts) resolves the name once; a hostile DNS server can answer a public
 * address then and 169.254.169.254 a moment later (DNS rebinding). Here the addresses judged are
 * the ones connected to, so that second answer is refused before a single byte is sent. undici is
 * used rather than the global fetch because only its Agent lets a caller give the socket its own
 * lookup and connector.
 */
import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { type LookupFunction, defaultLookup, destinationRefusal } from './address-guard';
import type { FetchLike } from './http-fetch';

export function checkingLookup(blockPrivate: () => boolean, lookup: LookupFunction = defaultLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (err, address, family) => {
      if (err) {
        callback(err, address, family);
        return;
      }
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const refusal = destinationRefusal(hostname, addresses, blockPrivate());
      if (refusal) callback(refusal, address, family);
      else callback(null, address, family);
    });
  };
}

/**
 * Opens every connection through `checkingLookup`; a literal address, which is connected to
 * without a lookup, is judged here. So a redirect that undici follows itself (as the MCP SDK's
 * fetch does) is held to the same rule as the first request.
 */
export function guardedConnector(
  blockPrivate: () => boolean,
  lookup: LookupFunction = defaultLookup,
): buildConnector.connector {
  const connect = buildConnector({ lookup: checkingLookup(blockPrivate, lookup) });
  return (options, callback) => {
    const literal = options.hostname.replace(/^\[|\]$/g, '');
    const refusal = isIP(literal) ? destinationRefusal(options.hostname, [literal], blockPrivate()) : undefined;
    if (refusal) callback(refusal, null);
    else connect(options, callback);
  };
}

/** A fetch whose connections all go through `guardedConnector`; one connection pool per tool family. */
export function connectGuardedFetch(blockPrivate: () => boolean, lookup: LookupFunction = defaultLookup): FetchLike {
  const dispatcher = new Agent({ connect: guardedConnector(blockPrivate, lookup) });
  return (input, init) =>
    undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
}
