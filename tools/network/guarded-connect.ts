/**
 * The network tools' default fetch: undici with a lookup that re-checks, at the moment the socket
 * connects, every address the name resolved to. The check before the request (address-guard.ts)
 * resolves the name once; a hostile DNS server can answer a public address then and
 * 169.254.169.254 a moment later (DNS rebinding). Here the addresses judged are the ones connected
 * to, so that second answer is refused before a single byte is sent. undici is used rather than the
 * global fetch because only its Agent lets a caller give the socket its own lookup.
 */
import { Agent, fetch as undiciFetch } from 'undici';
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

/** A fetch whose connections all go through `checkingLookup`; one connection pool per tool family. */
export function connectGuardedFetch(blockPrivate: () => boolean, lookup: LookupFunction = defaultLookup): FetchLike {
  const dispatcher = new Agent({ connect: { lookup: checkingLookup(blockPrivate, lookup) } });
  return (input, init) => undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
}
