/**
 * Rule: shell_execute's declared `timeoutMs` (up to 120 s) is the bound its command gets. The
 * mutating run policy's timeout (60 s in production) must not cut a command the schema allowed to
 * run longer, and a command over its own bound is still stopped by it. Through a real MCP client
 * against a host with the virtual phone; scaled: a 1 s mutating timeout, a 2 s command.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
let serial: string;

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, runPolicies: { mutating: { timeoutMs: 1_000 } } });
  client = await connectClient(t.host, 'long-command-agent');
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe("shell_execute's timeoutMs", () => {
  it('lets a command run past the mutating timeout when its declared bound allows it', async () => {
    const r = await client.callTool({
      name: 'shell_execute',
      arguments: { command: 'sleep 2; echo done', timeoutMs: 5_000, serial },
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toBe('done\n[exit status 0]');
    const breakers = t.host.pipeline.breakers?.states() ?? [];
    expect(breakers.filter((b) => b.consecutiveFailures > 0)).toEqual([]);
  });

  it('still stops a command at its own bound', async () => {
    const r = await client.callTool({
      name: 'shell_execute',
      arguments: { command: 'sleep 5; echo late', timeoutMs: 1_000, serial },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      new RegExp(
        String.raw`^Error: TIMEOUT: The command did not finish within its timeoutMs \(1 s\) and was stopped\.` +
          String.raw`\nHint: Raise timeoutMs`,
      ),
    );
    expect(textOf(r)).not.toContain('late');
  });
});
