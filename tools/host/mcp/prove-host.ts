/**
 * The bridge's side of the host's proof (http/host-proof.ts): it sends a fresh nonce, and believes
 * the server at the URL is its host only if the answer is the HMAC of that nonce under the token
 * it is about to send. Nothing but the nonce crosses before that, and a server that cannot answer
 * (not Toolgate, or a Toolgate of another data dir) gets nothing more.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { HOST_PROOF_PATH, newNonce, proofMatches, tokenDigest, tokenHint } from '../http/host-proof';
import { fetchFailure } from './own-account-fetch';

/** A real answer is a few dozen bytes; a server that streams more is not the host. */
const MAX_ANSWER_BYTES = 4096;

export type ProofVerdict = { ok: true } | { ok: false; message: string };

async function readCapped(res: Response): Promise<string | undefined> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function proveHost(options: {
  mcpUrl: string;
  token: string;
  fetch: FetchLike;
  timeoutMs?: number;
}): Promise<ProofVerdict> {
  const url = new URL(HOST_PROOF_PATH, options.mcpUrl);
  const nonce = newNonce();
  const notHost = `the server at ${url.origin} is not the Toolgate host of this token`;
  let res: Response;
  try {
    res = await options.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nonce, token: tokenHint(tokenDigest(options.token)) }),
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
  } catch (e) {
    return { ok: false, message: `cannot reach ${url.origin}: ${fetchFailure(e)}` };
  }
  let answer: string | undefined;
  try {
    answer = await readCapped(res);
  } catch (e) {
    return { ok: false, message: `${notHost}: its answer broke off (${fetchFailure(e)})` };
  }
  if (res.status !== 200)
    return { ok: false, message: `${notHost}: it answered the host challenge with HTTP ${res.status}` };
  let proof: unknown;
  try {
    proof = answer === undefined ? undefined : (JSON.parse(answer) as { proof?: unknown } | null)?.proof;
  } catch {
    proof = undefined;
  }
  if (!proofMatches(options.token, nonce, proof))
    return { ok: false, message: `${notHost}: it could not prove it holds the token` };
  return { ok: true };
}
