/**
 * Rule (docs/architecture.md#shortcuts): shortcut preconditions name telemetry keys the host has
 * (listed in shortcut_define's schema over MCP) and keep working after a restart: the stored
 * shortcut is loaded with the host's telemetry reader, so a fresh known-bad reading refuses the
 * run, while a stale one is unknown and lets it through (fail-open, as the environment gate does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost } from '../../tools/host/host';
import { freePort } from '../support/private-adb';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let adbPort: number;

beforeAll(async () => {
  adbPort = await freePort();
  t = await startTestHost({ adbPort });
});
afterAll(async () => t?.dispose());

describe('shortcut preconditions', () => {
  it('are keys the host has, listed in shortcut_define’s schema as an agent reads it', async () => {
    const client = await connectClient(t.host, 'shortcut-agent');
    const define = (await client.listTools()).tools.find((tool) => tool.name === 'shortcut_define');
    const schema = JSON.stringify(define?.inputSchema);
    expect(schema).toContain('device.<serial>.online');
    expect(schema).toContain('device.<serial>.foregroundPackage');
    expect(schema).toContain('browser.dialogOpen');
    const refused = await client.callTool({
      name: 'shortcut_define',
      arguments: {
        id: 'shortcut.bad_key',
        description: 'x',
        preconditions: [{ key: 'foreground.package', equals: 'com.android.settings' }],
        steps: [{ tool: 'calculate', args: { expression: '1 + 1' } }],
      },
    });
    expect(textOf(refused)).toContain("'foreground.package' is not a telemetry key the host has");
    const defined = await client.callTool({
      name: 'shortcut_define',
      arguments: {
        id: 'shortcut.on_phone',
        description: 'Adds on the given phone.',
        params: [{ name: 'serial', type: 'string', description: 'Which phone.' }],
        preconditions: [{ key: 'device.{serial}.online', equals: true, hint: 'Connect that phone first.' }],
        steps: [{ tool: 'calculate', args: { expression: '40 + 2' } }],
      },
    });
    expect(defined.isError).toBeFalsy();
    await client.close();
  });

  it('are checked after a restart, with fresh readings only', async () => {
    const { dataDir } = t;
    await t.host.close();
    t.host = await startHost({ port: 0, dataDir, adbPort });
    const client = await connectClient(t.host, 'shortcut-agent');
    t.host.telemetry.set('device.phone-a.online', false);
    t.host.telemetry.set('device.phone-b.online', false, Date.now() - 60_000);
    const refused = await client.callTool({ name: 'shortcut.on_phone', arguments: { serial: 'phone-a' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('needs device.phone-a.online = true, but it is false; no step was run.');
    expect(textOf(refused)).toContain('Connect that phone first.');
    const stale = await client.callTool({ name: 'shortcut.on_phone', arguments: { serial: 'phone-b' } });
    expect(stale.isError).toBeFalsy();
    expect(textOf(stale)).toContain('42');
    await client.close();
  });
});
