/**
 * Rule: an approval no one answered is not "denied by a person". Through a real MCP client against
 * a host with the virtual phone: a shell_execute command that needs approval and gets no answer in
 * time says "Not approved" (not "the user denied"), and the usage report counts it as unanswered,
 * neither as a person's denial nor as a tool failure. Scaled: a 1 s approval timeout.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
let serial: string;

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, approvalTimeoutMs: 1_000 });
  client = await connectClient(t.host, 'unanswered-agent');
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('a shell command no one approved in time', () => {
  it('says it was not approved, and counts as unanswered, not as denied by a person', async () => {
    const r = await client.callTool({
      name: 'shell_execute',
      arguments: { command: 'touch /sdcard/Download/later.txt', serial },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      new RegExp(
        String.raw`^Error: PERMISSION_DENIED: Not approved: running \`touch /sdcard/Download/later\.txt\` ` +
          'was not run: no one answered',
      ),
    );
    expect(textOf(r)).not.toContain('The user denied');
    const { stats } = await t.host.api.usage({ toolId: 'shell_execute' });
    expect(stats[0]?.outcomes).toMatchObject({ unanswered: 1, denied: 0, policyRefused: 0, toolFailed: 0 });
  });
});
