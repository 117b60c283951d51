/**
 * Rule (issue 12, item 3), through a real MCP client against a running host with the virtual
 * phone: the lines that used to run without asking (`1<>`, `sort -o`, `uniq IN OUT`, `dumpsys
 * battery set`, `LD_PRELOAD=`) now wait for a person's approval, and denying it leaves the phone's
 * files as they were; the recursive deletes that slipped through when the path was spelled another
 * way (`/sdcard/.`, `/./sdcard`, `/sdcard/..`, `/storage/emulated/0/..`, `/data/media/0`,
 * `-Rf /data/user/0`) are refused without asking, with a text naming the rule. The phone's files
 * are read over adb's sync protocol, independently of the gate.
 */
import { Readable } from 'node:stream';
import Adb, { type DeviceClient } from '@devicefarmer/adbkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { freePort } from '../support/private-adb';

let t: TestHost;
let client: Client;
let phone: DeviceClient;

/** Every entry under the shell user's writable folders: name, mode, size, mtime and content. */
async function phoneFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await phone.readdir(dir)) {
      if (e.name === '.' || e.name === '..') continue;
      const path = `${dir}/${e.name}`;
      const content = e.isFile() ? (await Adb.util.readAll(await phone.pull(path))).toString('base64') : '';
      out.push(`${path} ${e.mode.toString(8)} ${e.size} ${e.mtime.getTime()} ${content}`);
      if (e.isDirectory()) await walk(path);
    }
  };
  await walk('/storage/emulated/0');
  await walk('/data/local/tmp');
  return out.sort();
}

async function battery(): Promise<string> {
  const r = await client.callTool({ name: 'shell_execute', arguments: { command: 'dumpsys battery' } });
  expect(r.isError).toBeFalsy();
  return textOf(r);
}

beforeAll(async () => {
  const adbPort = await freePort();
  t = await startTestHost({ virtualDevice: true, adbPort, approvalTimeoutMs: 20_000 });
  client = await connectClient(t.host, 'shell-gate-probe');
  const [device] = await t.host.api.devices({});
  phone = Adb.createClient({ port: adbPort }).getDevice(device!.serial);
  const transfer = await phone.push(Readable.from([Buffer.from('keep me\n')]), '/sdcard/Download/keep.txt');
  await new Promise<void>((resolve, reject) => transfer.on('end', resolve).on('error', reject));
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('lines that change the phone wait for a person, and a denial changes nothing', () => {
  it.each([
    'echo x 1<>/sdcard/x',
    'sort -o /sdcard/y /proc/version',
    'uniq /proc/version /sdcard/z',
    'dumpsys battery set level 1',
    'LD_PRELOAD=/x ls /',
  ])('%j asks for approval', async (command) => {
    const files = await phoneFiles();
    const charge = await battery();
    const call = client.callTool({ name: 'shell_execute', arguments: { command } });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 15_000 }).toHaveLength(1);
    const [item] = await t.host.api.pendingApprovals({});
    expect(item).toMatchObject({ toolId: 'shell_execute', args: { command } });
    await t.host.api.decideApproval({ approvalId: item!.approvalId, decision: 'deny', reason: 'not on my phone' });
    const r = await call;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('The user denied running');
    expect(await t.host.api.pendingApprovals({})).toEqual([]);
    expect(await phoneFiles()).toEqual(files);
    expect(await battery()).toBe(charge);
  });
});

describe('recursive deletes of a protected root are refused on every spelling of its path', () => {
  it.each([
    ['rm -rf /sdcard/.', '`/sdcard/.`: recursive rm of a system or user-data root (/storage/emulated/0)'],
    ['rm -rf /./sdcard', '`/./sdcard`: recursive rm of a system or user-data root (/storage/emulated/0)'],
    ['rm -rf /sdcard/..', '`/sdcard/..`: recursive rm of a system or user-data root (/)'],
    [
      'rm -rf /storage/emulated/0/..',
      '`/storage/emulated/0/..`: recursive rm of a system or user-data root (/storage/emulated)',
    ],
    ['rm -rf /data/media/0', '`/data/media/0`: recursive rm of a system or user-data root (/storage/emulated/0)'],
    ['rm -Rf /data/user/0', '`/data/user/0`: recursive rm of a system or user-data root (/data/data)'],
  ])('%j is refused without asking', async (command, rule) => {
    const files = await phoneFiles();
    const r = await client.callTool({ name: 'shell_execute', arguments: { command } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(`Refused to run this command: ${rule}.`);
    expect(textOf(r)).toContain('do not retry it');
    expect(await t.host.api.pendingApprovals({})).toEqual([]);
    expect(await phoneFiles()).toEqual(files);
  });
});

describe('the check of the phone’s files', () => {
  it('sees a write a person approved', async () => {
    const files = await phoneFiles();
    const call = client.callTool({
      name: 'shell_execute',
      arguments: { command: 'echo approved > /sdcard/Download/approved.txt' },
    });
    await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 15_000 }).toHaveLength(1);
    const [item] = await t.host.api.pendingApprovals({});
    await t.host.api.decideApproval({ approvalId: item!.approvalId, decision: 'approve_once' });
    expect((await call).isError).toBeFalsy();
    expect(await phoneFiles()).not.toEqual(files);
  });
});
