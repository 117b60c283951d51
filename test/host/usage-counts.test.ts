/**
 * Rule: counts mean what they say. Through a real MCP client against a running host: a call is one
 * request whatever its attempts (calls and attempts apart); a person's denial, a policy's refusal
 * (a path outside the workspace: no one was asked), a caller's mistake
 * (INVALID_ARGUMENT, NOT_FOUND) and a tool failure are counted apart; a refusal by the breaker or
 * the limiter is a refusal, never a run, so it is not in the run-time histogram (not the "≤ 1 ms"
 * bucket); "Failing right now" lists only tools whose runs fail, with the error's own words.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageStats } from '../../shared/contract';
import { failingTools } from '../../renderer/src/pages/overview/activity';
import { closedPortUrl } from '../ui/support/closed-port';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
let stats: Map<string, UsageStats>;
let deadUrl: string;

async function deny(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const [item] = await t.host.api.pendingApprovals({});
    if (item) {
      await t.host.api.decideApproval({ approvalId: item.approvalId, decision: 'deny', reason: 'not now' });
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no approval became pending');
}

beforeAll(async () => {
  t = await startTestHost({ rateLimitPerMinute: { uuid_generate: 2 } });
  client = await connectClient(t.host, 'counting-agent');
  deadUrl = `${await closedPortUrl()}status`;
  for (const expression of ['1 + 1', '2 * 3', '7 - 2'])
    await client.callTool({ name: 'calculate', arguments: { expression } });
  await client.callTool({ name: 'calculate', arguments: { expression: 12 } }); // the caller's mistake: not a string
  // NOT_FOUND of the caller's input
  await client.callTool({ name: 'read_file', arguments: { path: 'no-such-file.txt' } });
  await client.callTool({ name: 'list_files', arguments: { path: '../..' } }); // a policy's refusal: nobody was asked
  // the third is rate-limited
  for (let i = 0; i < 3; i++) await client.callTool({ name: 'uuid_generate', arguments: {} });
  // Each web_fetch call runs 3 attempts (2 retries); 5 failed calls open its breaker, the 6th is refused.
  for (let i = 0; i < 6; i++) await client.callTool({ name: 'web_fetch', arguments: { url: deadUrl } });
  mkdirSync(join(t.dataDir, 'workspace'), { recursive: true });
  writeFileSync(join(t.dataDir, 'workspace', 'notes.txt'), 'kept'); // there to delete, so a person is asked
  const denied = client.callTool({ name: 'delete_file', arguments: { path: 'notes.txt' } });
  await deny();
  expect(textOf(await denied)).toContain('PERMISSION_DENIED');
  stats = new Map((await t.host.api.usage({})).stats.map((s) => [s.toolId, s]));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('calls and attempts', () => {
  it('count a retried call once, and every attempt it took', () => {
    const fetch = stats.get('web_fetch')!;
    expect(fetch.calls).toBe(6);
    expect(fetch.attempts).toBe(15);
    expect(fetch.retries).toBe(10);
  });

  it('count a call refused before it ran as a call with no attempt', () => {
    expect(stats.get('calculate')).toMatchObject({ calls: 4, attempts: 3 });
    expect(stats.get('delete_file')).toMatchObject({ calls: 1, attempts: 0 });
  });
});

describe('how calls ended', () => {
  it('keeps the tool failing, the caller’s mistakes, a person’s denial and refusals apart', () => {
    expect(stats.get('web_fetch')?.outcomes).toMatchObject({ toolFailed: 5, refused: 1, succeeded: 0 });
    expect(stats.get('calculate')?.outcomes).toMatchObject({ succeeded: 3, callerMistake: 1, toolFailed: 0 });
    expect(stats.get('read_file')?.outcomes).toMatchObject({ callerMistake: 1, toolFailed: 0 });
    expect(stats.get('uuid_generate')?.outcomes).toMatchObject({ succeeded: 2, refused: 1 });
    expect(stats.get('delete_file')?.outcomes).toMatchObject({ denied: 1, policyRefused: 0, toolFailed: 0 });
  });

  it("tells a person's denial from a policy's refusal no one was asked about", () => {
    expect(stats.get('list_files')?.outcomes).toMatchObject({ policyRefused: 1, denied: 0, toolFailed: 0 });
  });

  it('keeps refusals out of the run-time histogram: it holds exactly the attempts that ran', () => {
    for (const s of stats.values()) expect(s.buckets.reduce((n, b) => n + b.count, 0)).toBe(s.attempts);
    expect(stats.get('uuid_generate')!.buckets.reduce((n, b) => n + b.count, 0)).toBe(2);
  });

  it('counts each minute by how its calls ended', () => {
    const minutes = stats.get('web_fetch')!.perMinute;
    expect(minutes.reduce((n, m) => n + m.calls, 0)).toBe(6);
    expect(minutes.reduce((n, m) => n + m.toolFailed, 0)).toBe(5);
    expect(minutes.reduce((n, m) => n + m.refused, 0)).toBe(1);
  });
});

describe('failing right now', () => {
  it('lists only the tool whose runs fail, with its error’s own words, not its code said twice', async () => {
    const failing = failingTools([...stats.values()], await t.host.api.breakers({}), Date.now());
    expect(failing.map((f) => f.toolId)).toEqual(['web_fetch']);
    const [fetch] = failing;
    expect(fetch).toMatchObject({ breaker: 'OPEN', toolFailures: 5, calls: 6 });
    expect(fetch?.lastError?.code).toBe('EXECUTION_FAILED');
    expect(fetch?.lastError?.message).toMatch(/ECONNREFUSED|refused/i);
    expect(fetch?.lastError?.message).not.toMatch(/^EXECUTION_FAILED|execution-failed/);
    // The URL the agent passed is never in what is reported.
    expect(fetch?.lastError?.message).not.toContain(new URL(deadUrl).host);
  });
});
