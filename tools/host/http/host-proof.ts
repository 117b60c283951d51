/**
 * The host proves it holds the token before a client sends it. The stdio bridge finds the host
 * through a port written in DATA/host.json, and once that host is gone any process may listen on
 * the port. So the bridge first sends a random nonce to POST /auth/challenge; the host answers
 * HMAC-SHA256(sha256(token), nonce || "toolgate-host-proof"), which the bridge checks against its
 * own copy of the token, and only then sends the token. The host keeps client tokens only as their
 * SHA-256 digests, so the digest is the key; the bridge names which token it holds by a one-way
 * hint of that digest (`tokenHint`), which tells an impostor nothing it could answer with. The
 * fixed suffix keeps a proof from serving as a proof of anything else.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, readBody } from './read-body';

export const HOST_PROOF_PATH = '/auth/challenge';

const PURPOSE = 'toolgate-host-proof';
/** base64url of 16 to 96 random bytes. */
const NONCE = /^[A-Za-z0-9_-]{22,128}$/;
const NONCE_HINT = 'Send {"nonce": "<22 to 128 base64url characters>", "token": "<the token\'s hint>"}.';

export function newNonce(): string {
  return randomBytes(32).toString('base64url');
}

/** The digest the host keeps of a token (hex SHA-256): the proof's key. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Which token a bridge holds, without the digest itself: a hash of the digest under its own purpose. */
export function tokenHint(digest: string): string {
  return createHash('sha256').update('toolgate-token-hint:').update(digest).digest('base64url').slice(0, 32);
}

const HINT = /^[A-Za-z0-9_-]{32}$/;

export function hostProof(digest: string, nonce: string): string {
  return createHmac('sha256', digest).update(nonce).update(PURPOSE).digest('base64url');
}

/** Whether `proof` is what only a holder of `token`'s digest can answer to `nonce` (constant time). */
export function proofMatches(token: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(hostProof(tokenDigest(token), nonce));
  const given = Buffer.from(proof);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers })
    .end(JSON.stringify(body));
}

/** The route: needs no token (the client has not sent it yet), answers one nonce with its proof. */
export async function answerHostProof(
  req: IncomingMessage,
  res: ServerResponse,
  digestFor: (hint: string) => string | undefined,
): Promise<void> {
  if (req.method !== 'POST') return send(res, 405, { error: `Use POST. ${NONCE_HINT}` }, { allow: 'POST' });
  let raw: Buffer;
  try {
    raw = await readBody(req, 1024);
  } catch (e) {
    if (e instanceof BodyTooLargeError) return send(res, 413, { error: `${e.message} ${NONCE_HINT}` });
    throw e;
  }
  let body: { nonce?: unknown; token?: unknown } | null | undefined;
  try {
    body = JSON.parse(raw.toString('utf8')) as typeof body;
  } catch {
    body = undefined;
  }
  const nonce = body?.nonce;
  const hint = body?.token;
  if (typeof nonce !== 'string' || !NONCE.test(nonce) || typeof hint !== 'string' || !HINT.test(hint))
    return send(res, 400, { error: NONCE_HINT });
  const digest = digestFor(hint);
  if (digest === undefined)
    return send(res, 404, { error: "This host knows no such token (revoked, or another host's)." });
  send(res, 200, { proof: hostProof(digest, nonce) });
}
