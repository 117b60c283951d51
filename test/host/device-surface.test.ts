/**
 * Rule: with --virtual-device the host starts the demo phone and an agent drives it over MCP
 * through the pipeline; the Devices view lists it with telemetry, streams its screen, and a click
 * on the screen is a traced ui_tap. A mutating shell command waits in the same approval queue as
 * any destructive tool, and its decision lands in the audit log.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/contract';
import type { ScreenStatus, WireFrame } from '../../shared/screen-wire';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
let serial: string;
const events: HostEvent[] = [];

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, approvalTimeoutMs: 10_000 });
  t.host.events.on((e) => events.push(e));
  client = await connectClient(t.host, 'qa-agent');
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('the demo phone in the host', () => {
  it('is listed as a device', async () => {
    expect(await t.host.api.devices({})).toEqual([
      expect.objectContaining({ serial: expect.stringMatching(/^127\.0\.0\.1:\d+$/), state: 'device' }),
    ]);
    expect((await t.host.api.info({})).devices).toHaveLength(1);
  });

  it('answers an agent’s device tools over MCP', async () => {
    const apps = await client.callTool({ name: 'app_list', arguments: {} });
    expect(apps.isError).toBeFalsy();
    expect(textOf(apps)).toContain('com.example.notes');
    const dump = await client.callTool({ name: 'ui_dump', arguments: {} });
    expect(textOf(dump)).toMatch(/e\d+/);
  });

  it('streams the live screen while someone watches, as H.264 from the phone, and stops after', async () => {
    const frames: WireFrame[] = [];
    const statuses: ScreenStatus[] = [];
    const viewer = t.host.screens!.watch(
      { serial, maxWidth: 360, maxHeight: 640 },
      {
        status: (s) => statuses.push(s),
        frame: (f) => {
          frames.push(f);
          viewer.ack(f.seq);
          return true;
        },
      },
    );
    await expect.poll(() => frames.length, { timeout: 30_000 }).toBeGreaterThan(2);
    expect(frames[0]).toMatchObject({ kind: 'h264', key: true });
    expect(statuses.at(-1)).toMatchObject({ mode: 'h264', display: { width: 1080, height: 2400 } });
    viewer.close();
    expect(t.host.screens).toBeDefined();
  });

  it('turns a click on the screen into a traced ui_tap', async () => {
    const r = await t.host.api.deviceTap({ serial, x: 100, y: 200 });
    expect(r.ok).toBe(true);
    const spans = t.host.api.listSpans({ toolId: 'ui_tap', limit: 10 }) as Array<{ requesterKind: string }>;
    expect(spans[0]?.requesterKind).toBe('ui');
  });

  it('shows a logcat excerpt', async () => {
    const { lines } = await t.host.api.deviceLogcat({ serial, lines: 20 });
    expect(lines.length).toBeGreaterThan(0);
  });

  it('holds a mutating shell command for approval and audits the denial', async () => {
    const call = client.callTool({ name: 'shell_execute', arguments: { command: 'rm /sdcard/notes.txt' } });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [item] = await t.host.api.pendingApprovals({});
    expect(item).toMatchObject({ toolId: 'shell_execute', args: { command: 'rm /sdcard/notes.txt' } });
    await t.host.api.decideApproval({ approvalId: item!.approvalId, decision: 'deny', reason: 'keep the notes' });
    const r = await call;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('keep the notes');
    const audit = await t.host.api.auditLog({ limit: 10 });
    expect(audit[0]).toMatchObject({
      toolId: 'shell_execute',
      decision: 'deny',
      reason: 'keep the notes',
      decider: 'ui',
    });
  });

  it('runs a read-only shell command without asking', async () => {
    const r = await client.callTool({ name: 'shell_execute', arguments: { command: 'getprop ro.product.model' } });
    expect(r.isError).toBeFalsy();
    expect(await t.host.api.pendingApprovals({})).toEqual([]);
  });
});
