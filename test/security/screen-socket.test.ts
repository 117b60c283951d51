/**
 * Rule: a phone's live screen is the person's, like every other UI channel. The socket
 * `/api/screen` passes the same check as `/api/events` (the UI session's cookie and the UI's own
 * Origin; an MCP client's token refused however it is sent), so an agent cannot watch the phone
 * and another site's page cannot either. A malformed request is answered with why, and closed. A
 * viewer that reads nothing cannot make the host hold its frames: for a minute it holds at most its
 * window while the other viewers keep getting frames.
 *
 * Attacks reproduced: an agent with the MCP token (header or query, with or without the person's
 * cookie) opening the screen of the phone it drives, a page of another origin opening it with the
 * person's cookie, and a client that opens the screen and never reads, to grow the host's memory.
 * Each refusal carries the host's words for it, the same as the event socket's.
 */
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ScreenStatus, type WireFrame, decodeFrame } from '../../shared/screen-wire';
import { BEARER_REFUSED, CSRF_REFUSED, NO_SESSION } from '../../tools/host/http/person-guard';
import { type TestHost, startTestHost } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

// Memory is compared after a full collection, so garbage not yet collected does not read as held.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let t: TestHost;
let person: PersonSession;
let serial = '';

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true });
  person = await openPersonSession(t.host.uiLink());
  for (let i = 0; i < 90 && !serial; i++) {
    serial = (await t.host.api.devices({})).find((d) => d.state === 'device')?.serial ?? '';
    if (!serial) await new Promise((r) => setTimeout(r, 500));
  }
  if (!serial) throw new Error('the host started with virtualDevice: true lists no online phone');
}, 90_000);
afterAll(async () => {
  await t?.dispose();
});

/** Opens a socket; a refusal comes back as its status and the host's words for it. */
function open(path: string, headers: Record<string, string>, query = '') {
  return new Promise<{ outcome: string; words: string; ws: WebSocket }>((resolve) => {
    const ws = new WebSocket(`${person.origin.replace('http', 'ws')}${path}${query}`, { headers });
    ws.on('open', () => resolve({ outcome: 'open', words: '', ws }));
    ws.on('unexpected-response', (_req, res) => {
      let words = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (words += chunk));
      res.on('end', () => resolve({ outcome: String(res.statusCode), words: words.trim(), ws }));
    });
    ws.on('error', (e) => resolve({ outcome: e.message, words: '', ws }));
  });
}

/** A viewer on the socket that records what comes and acknowledges each frame (unless it is to stall). */
async function viewer(query: string, opts: { stall?: boolean } = {}) {
  const statuses: ScreenStatus[] = [];
  // Without the bytes: this process is the host too, whose memory the last test measures.
  const frames: Omit<WireFrame, 'data'>[] = [];
  let closeCode: number | undefined;
  const ws = new WebSocket(`${person.origin.replace('http', 'ws')}/api/screen${query}`, {
    headers: { origin: person.origin, cookie: person.cookie },
  });
  // A stalled viewer stops reading the moment it is connected: nothing more leaves the kernel's buffers.
  if (opts.stall) ws.on('upgrade', (res) => (res.socket as Socket).pause());
  ws.on('message', (data, isBinary) => {
    if (!isBinary) return void statuses.push(JSON.parse(String(data)) as ScreenStatus);
    const frame = decodeFrame(new Uint8Array(data as Buffer));
    if (!frame) return;
    frames.push({ kind: frame.kind, key: frame.key, seq: frame.seq, at: frame.at });
    if (!opts.stall) ws.send(JSON.stringify({ type: 'ack', seq: frame.seq }));
  });
  ws.on('close', (code) => (closeCode = code));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, statuses, frames, closeCode: () => closeCode };
}

const query = (s = serial, size = '360x640') => {
  const [w, h] = size.split('x');
  return `?serial=${encodeURIComponent(s)}&maxWidth=${w}&maxHeight=${h}`;
};

describe('the screen socket', () => {
  it('refuses as the event socket does: no session, the MCP token (header, query), other or no Origin', async () => {
    const attempts = (path: string) => [
      open(path, { origin: person.origin }, query()),
      open(path, { origin: person.origin, authorization: `Bearer ${t.host.token}` }, query()),
      open(path, { origin: person.origin }, `${query()}&token=${t.host.token}`),
      open(path, { origin: 'http://evil.example', cookie: person.cookie }, query()),
      open(path, { cookie: person.cookie }, query()),
    ];
    const screen = await Promise.all(attempts('/api/screen'));
    const events = await Promise.all(attempts('/api/events'));
    for (const r of [...screen, ...events]) r.ws.terminate();
    expect(screen.map((r) => r.outcome)).toEqual(['401', '403', '403', '403', '403']);
    expect(screen.map((r) => r.words)).toEqual([
      NO_SESSION,
      BEARER_REFUSED,
      BEARER_REFUSED,
      "Origin 'http://evil.example' is not allowed.",
      CSRF_REFUSED,
    ]);
    expect(screen.map((r) => [r.outcome, r.words])).toEqual(events.map((r) => [r.outcome, r.words]));
  });

  it('refuses an agent’s MCP token even with the person’s cookie and Origin, and another site’s cookie', async () => {
    const withToken = await open(
      '/api/screen',
      { origin: person.origin, cookie: person.cookie, authorization: `Bearer ${t.host.token}` },
      query(),
    );
    const foreign = await open(
      '/api/screen',
      { origin: 'https://phone-watch.example', cookie: person.cookie },
      query(),
    );
    for (const r of [withToken, foreign]) r.ws.terminate();
    expect([withToken.outcome, withToken.words]).toEqual(['403', BEARER_REFUSED]);
    expect([foreign.outcome, foreign.words]).toEqual(['403', "Origin 'https://phone-watch.example' is not allowed."]);
    // Nobody got to watch: no stream was started for the phone.
    expect(t.host.screens?.screenStats(serial)).toBeUndefined();
  });

  it('streams the phone to the person’s session: a status saying H.264, then frames from a key frame on', async () => {
    const v = await viewer(query());
    await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(5);
    expect(v.frames[0]).toMatchObject({ kind: 'h264', key: true });
    expect(v.statuses.at(-1)).toMatchObject({ mode: 'h264', display: { width: 1080, height: 2400 } });
    v.ws.close();
  });

  it('answers a malformed request with why, then closes', async () => {
    const v = await viewer(`?serial=${encodeURIComponent(serial)}`);
    await expect.poll(() => v.closeCode(), { timeout: 10_000 }).toBe(1008);
    expect(v.statuses[0]).toMatchObject({ mode: 'failed', reason: expect.stringContaining('malformed') });
  });

  it('says so for a phone that is not attached', async () => {
    const v = await viewer(query('no-such-phone'));
    await expect.poll(() => v.statuses.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(v.statuses[0]).toMatchObject({ mode: 'failed', reason: "No device 'no-such-phone' is attached." });
    v.ws.close();
  });

  it('holds a viewer that reads nothing for a minute to its window, and keeps the others going', async () => {
    // At the phone's full size: ~4 Mbit/s, some 30 MB a minute that a host holding frames would pile up.
    const healthy = await viewer(query(serial, '720x1280'));
    await expect.poll(() => healthy.frames.length, { timeout: 30_000 }).toBeGreaterThan(10);
    const stalled = await viewer(query(serial, '720x1280'), { stall: true });
    const stats = () => t.host.screens?.screenStats(serial);
    await expect.poll(() => stats()?.viewers.length, { timeout: 10_000 }).toBe(2);
    // What the process holds is what every sample shows: a buffer read off a socket or a pipe at the
    // moment of one sample (seen: 14.6 MB of array buffers, then 44.5, then 14.6 again) is in flight,
    // not held, so the least of a few samples, each after a full collection, is compared.
    const memory = async () => {
      let least = Number.POSITIVE_INFINITY;
      for (let sample = 0; sample < 5; sample++) {
        collectGarbage();
        const { arrayBuffers, heapUsed } = process.memoryUsage();
        least = Math.min(least, arrayBuffers + heapUsed);
        await new Promise((r) => setTimeout(r, 200));
      }
      return least;
    };
    const started = await memory();
    const framesBefore = healthy.frames.length;
    const producedBefore = stats()?.frames ?? 0;
    let worstInFlight = 0;
    for (let second = 0; second < 60; second++) {
      await new Promise((r) => setTimeout(r, 1_000));
      worstInFlight = Math.max(worstInFlight, ...(stats()?.viewers.map((v) => v.bytesInFlight) ?? [0]));
    }
    const now = stats()!;
    const stalledView = now.viewers.find((v) => v.skipped > 0);
    // The phone kept streaming; the stalled viewer got no more than its window and skipped the rest.
    expect(now.frames - producedBefore).toBeGreaterThan(300);
    expect(stalledView?.framesInFlight).toBeLessThanOrEqual(90);
    expect(worstInFlight).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(stalledView?.skipped).toBeGreaterThan(200);
    expect(stalled.frames.length).toBeLessThanOrEqual(90);
    expect(healthy.frames.length - framesBefore).toBeGreaterThan(300);
    expect((await memory()) - started).toBeLessThan(16 * 1024 * 1024);
    stalled.ws.terminate();
    healthy.ws.close();
    await expect.poll(() => stats(), { timeout: 10_000 }).toBeUndefined();
  }, 120_000);
});
