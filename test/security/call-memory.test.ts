/**
 * Rule (Only a person approves, "nothing argument-derived is written down"): the arguments the host
 * keeps so a person can see a call, replay it or open it in Try it live in its memory only. Agents
 * send secrets through a real MCP client (directly, inside batch steps, in a replay); the person's
 * API shows them in the call's detail while the host runs, and nowhere else: not in the bug report,
 * the span export, usage, the database and its WAL, host.log, nor any other byte of the data dir,
 * before or after shutdown. A restarted host no longer has them and refuses to replay.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost } from '../../tools/host/host';
import { type TestHost, connectClient, startTestHost } from '../host/harness';
import { findLeak } from '../support/argument-runs';
import { freePort } from '../support/private-adb';
import { closedPortUrl } from '../ui/support/closed-port';
import { writtenDown } from './support/written-down';

const SECRETS = ['sk-proj-QmV3x9LkT2', 'hunter2-but-longer-77', 'ops-4431-vault-pass'];
let t: TestHost;
let adbPort: number;
let client: Client;
let url: string;
const ids: string[] = [];

function callIdOf(result: unknown): string {
  return (result as { _meta: Record<string, string> })._meta['toolgate/callId']!;
}

beforeAll(async () => {
  adbPort = await freePort();
  t = await startTestHost({ adbPort });
  client = await connectClient(t.host, 'leaky-agent');
  url = `${await closedPortUrl()}v1/keys?api_key=${SECRETS[0]}`;
  ids.push(callIdOf(await client.callTool({ name: 'web_fetch', arguments: { url } })));
  ids.push(
    callIdOf(
      await client.callTool({
        name: 'http_request',
        arguments: { url, method: 'POST', headers: { 'x-password': SECRETS[1] }, body: SECRETS[2] },
      }),
    ),
  );
  ids.push(
    callIdOf(
      await client.callTool({
        name: 'tool_batch_run',
        arguments: {
          steps: [
            { tool: 'regex_extract', args: { text: `login ${SECRETS[1]} ok`, pattern: 'login (\\S+)' } },
            { tool: 'calculate', args: { expression: `${SECRETS[2]!.replace(/-/g, '_')} + 1` } },
          ],
        },
      }),
    ),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

/** What the agent sent that is its own (the loopback address prefix is also the host's own address, in host.json). */
const values = () => [new URL(url).pathname + new URL(url).search, ...SECRETS, SECRETS[2]!.replace(/-/g, '_')];

describe('arguments kept in memory', () => {
  it('are shown to the person in the call detail while the host runs', async () => {
    const detail = await t.host.api.callDetail({ callId: ids[0]! });
    expect(detail.memory?.args).toEqual({ url });
    const replay = await t.host.api.replayCall({ callId: ids[1]! });
    expect(replay.ok).toBe(true);
    ids.push(replay.outcome!.callId);
  });

  it('are in no bug report, span export or usage report', async () => {
    const everyCall = (await t.host.api.listSpans({ limit: 10_000 })).map((s) => s.callId);
    const handedOut: unknown[] = [await t.host.api.exportSpans({ limit: 10_000 }), await t.host.api.usage({})];
    for (const id of new Set([...ids, ...everyCall])) handedOut.push(await t.host.api.callReport({ callId: id }));
    expect(findLeak(JSON.stringify(handedOut), values())).toBeUndefined();
  });

  it('are written nowhere in the data dir, before or after shutdown', async () => {
    const live = writtenDown(t.dataDir);
    expect(live.files.some((f) => f.endsWith('toolgate.db-wal'))).toBe(true);
    expect(findLeak(live.text, values())).toBeUndefined();
    await client.close();
    await t.host.close();
    const after = writtenDown(t.dataDir);
    expect(after.files.some((f) => f.endsWith('host.log'))).toBe(true);
    expect(findLeak(after.text, values())).toBeUndefined();
  });

  it('are gone after a restart: the detail has none and a replay is refused, saying why', async () => {
    t.host = await startHost({ port: 0, dataDir: t.dataDir, adbPort });
    const detail = await t.host.api.callDetail({ callId: ids[0]! });
    expect(detail.spans.length).toBeGreaterThan(0);
    expect(detail.memory).toBeUndefined();
    const replay = await t.host.api.replayCall({ callId: ids[0]! });
    expect(replay.ok).toBe(false);
    expect(replay.message).toMatch(/no longer in memory .*cannot be run again/);
  });
});
