/**
 * Rule (issue 14, "nobody is asked to approve a call that cannot run" and "the card shows exactly
 * what will run"), through a real MCP client against a host with the virtual phone: invalid
 * arguments and an unknown tool never reach the approval queue; the card holds the parsed
 * arguments with defaults filled in and the undeclared fields marked ignored; a near name of a
 * declared field of a tool that needs approval (`keep_data` for `keepData`) is refused before
 * anyone is asked; every result tells the model which fields it ignored.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalQueueEvent } from '../../tools/host/approval-queue';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
let serial: string;
const queued: ApprovalQueueEvent[] = [];

beforeAll(async () => {
  t = await startTestHost({ virtualDevice: true, approvalTimeoutMs: 20_000 });
  t.host.approvals.onEvent((e) => queued.push(e));
  client = await connectClient(t.host, 'careless-agent');
  const [device] = await t.host.api.devices({});
  serial = device!.serial;
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

const uninstall = (args: Record<string, unknown>) =>
  client.callTool({ name: 'app_uninstall', arguments: { serial, ...args } });

describe('a call that cannot run', () => {
  it.each([
    [
      'a package name that is none',
      { packageName: 'not a package' },
      'argument "packageName": not an Android package name',
    ],
    ['no package name', {}, 'missing required argument "packageName"'],
    ['a wrong type', { packageName: 'com.example.shop', keepData: 'yes' }, 'argument "keepData"'],
  ])('never reaches the queue: %s is INVALID_ARGUMENT at once', async (_what, args, said) => {
    queued.length = 0;
    const r = await uninstall(args);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('Error: INVALID_ARGUMENT: Invalid arguments:');
    expect(textOf(r)).toContain(said);
    expect(queued).toEqual([]);
  });

  it('never reaches the queue when the tool is unknown', async () => {
    queued.length = 0;
    const r = await client.callTool({ name: 'app_uninstal', arguments: { packageName: 'com.example.shop' } });
    expect(textOf(r)).toContain(
      "Error: NOT_FOUND: Unknown tool 'app_uninstal'. Did you mean: app_uninstall, app_install?",
    );
    expect(queued).toEqual([]);
  });

  it('refuses keep_data for keepData before anyone is asked, and the app stays with its data', async () => {
    queued.length = 0;
    const r = await uninstall({ packageName: 'com.example.shop', keep_data: true });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Error: INVALID_ARGUMENT: Invalid arguments: keep_data ' +
        'is not a field of app_uninstall; did you mean keepData?\n' +
        'Hint: Send the call again with keepData spelled as declared. Nothing ran and nobody was asked.',
    );
    expect(queued).toEqual([]);
    expect(
      (await client.callTool({ name: 'app_info', arguments: { packageName: 'com.example.shop', serial } })).isError,
    ).toBeFalsy();
  });
});

describe('the card and the result', () => {
  it('show what will run: parsed arguments, defaults filled in, the undeclared field marked ignored', async () => {
    queued.length = 0;
    const call = uninstall({ packageName: 'com.example.shop', colour: 'red' });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [card] = await t.host.api.pendingApprovals({});
    expect(card).toMatchObject({
      toolId: 'app_uninstall',
      args: { packageName: 'com.example.shop', keepData: false, serial },
      ignored: { colour: 'red' },
      target: { kind: 'device', value: serial, label: `device ${serial}` },
    });
    await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'deny', reason: 'not the shop' });
    const r = await call;
    expect(textOf(r)).toBe(
      "Error: PERMISSION_DENIED: The user denied 'app_uninstall': not the shop\n" +
        'Hint: Do not retry this call; change your approach. Ignored: ' +
        'colour is not a field of app_uninstall and had no effect.',
    );
  });

  it('offer a target approval only for a call that names its target, and refuse one not offered', async () => {
    const call = client.callTool({ name: 'app_force_stop', arguments: { packageName: 'com.example.notes' } });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [card] = await t.host.api.pendingApprovals({});
    expect(card?.target).toBeUndefined();
    expect(card?.choices.map((c) => c.decision)).toEqual(['approve_once', 'approve_session']);
    expect(await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'approve_target' })).toEqual({
      ok: false,
      message: "This call does not offer 'approve_target'; choose one of the approvals on its card.",
    });
    await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'deny' });
    expect((await call).isError).toBe(true);
  });

  it('name the origin of a batch step: the batch, the step, and the MCP client that asked for the batch', async () => {
    const call = client.callTool({
      name: 'tool_batch_run',
      arguments: { steps: [{ tool: 'app_force_stop', args: { packageName: 'com.example.notes', serial } }] },
    });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
    const [card] = await t.host.api.pendingApprovals({});
    expect(card?.requester).toMatchObject({
      kind: 'batch',
      label: 'tool_batch_run',
      step: 1,
      via: { kind: 'mcp', label: 'careless-agent 1.0.0', id: expect.stringMatching(/^default#\d+$/) },
    });
    await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'deny' });
    expect((await call).isError).toBe(true);
  });

  it('tell the model of every tool which fields it ignored; fields that resemble nothing are tolerated', async () => {
    const r = await client.callTool({ name: 'app_list', arguments: { serial, verbose: true, sort: 'name' } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('com.example.shop');
    expect(textOf(r)).toMatch(/\nIgnored: verbose, sort are not fields of app_list and had no effect\.$/);
  });
});
