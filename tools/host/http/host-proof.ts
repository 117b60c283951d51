/**
 * The host proves it holds the token before a client sends it. The stdio bridge finds the host
 * through a port written in DATA/host.json, and once that host is gone any process may listen on
 * the port. So the bridge first sends a random nonce to POST /auth/challenge; the host answers
 * HMAC-SHA256(token, nonce || "toolgate-host-proof"), which the bridge checks against its own copy
 * of the token, and only then sends the token. The answer tells nothing about the token, and the
 * fixed suffix keeps it from serving as a proof of anything else.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, readBody } from './read-body';

export const HOST_PROOF_PATH = '/auth/challenge';

const PURPOSE = 'toolgate-host-proof';
/** base64url of 16 to 96 random bytes. */
const NONCE = /^[A-Za-z0-9_-]{22,128}$/;
const NONCE_HINT = 'Send {"nonce": "<22 to 128 base64url characters>"}.';

export function newNonce(): string {
  return randomBytes(32).toString('base64url');
}

export function hostProof(token: string, nonce: string): string {
  return createHmac('sha256', token).update(nonce).update(PURPOSE).digest('base64url');
}

/** Whether `proof` is what only a holder of `token` can answer to `nonce` (constant time). */
export function proofMatches(token: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(hostProof(token, nonce));
  const given = Buffer.from(proof);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers })
    .end(JSON.stringify(body));
}

/** The route: needs no token (the client has not sent it yet), answers one nonce with its proof. */
export async function answerHostProof(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
  if (req.method !== 'POST') return send(res, 405, { error: `Use POST. ${NONCE_HINT}` }, { allow: 'POST' });
  let raw: Buffer;
  try {
    raw = await readBody(req, 1024);
  } catch (e) {
    if (e instanceof BodyTooLargeError) return send(res, 413, { error: `${e.message} ${NONCE_HINT}` });
    throw e;
  }
  let nonce: unknown;
  try {
    nonce = (JSON.parse(raw.toString('utf8')) as { nonce?: unknown } | null)?.nonce;
  } catch {
    nonce = undefined;
  }
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) return send(res, 400, { error: NONCE_HINT });
  send(res, 200, { proof: hostProof(token, nonce) });
}
