/**
 * Issue 12: "the tools never reach Toolgate itself". With networkBlockPrivateAddresses on,
 * http_request was refused but other ways in were not; with it off (the default) nothing stopped a
 * tool calling the host's own API. Rule: every tool that connects out (http_request, web_fetch,
 * download_file, mcp_connect over HTTP, browser_navigate) refuses the host's own port on every
 * spelling of this machine, whatever the setting says, with a PERMISSION_DENIED that names
 * Toolgate; other loopback ports stay governed by the setting. Real host, real MCP client.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreachablePortArgs } from '../../tools/browser';
import { SelfGuard, isThisMachine } from '../../tools/common/self-guard';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { removeDir } from '../support/remove-dir';
import { requireChromium } from '../support/requirements';
import { type HostTraffic, watchHostTraffic } from './host-traffic';

const REFUSED = /PERMISSION_DENIED: Refused: \S+ is Toolgate itself; tools may not reach it\./;
const SPELLINGS = [
  '127.0.0.1',
  '127.1',
  '0x7f.1',
  '0177.0.0.1',
  '2130706433',
  '127.0.0.53',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[0:0:0:0:0:ffff:7f00:1]',
  'localhost',
  'localhost.',
  'LOCALHOST',
  'api.localhost',
  '0.0.0.0',
  '0',
  '[::]',
];

let t: TestHost;
let client: Client;
let traffic: HostTraffic;
let other: Server;
let otherUrl: string;

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { error: result.isError === true, text: textOf(result) };
}

/** Every way a tool has to send a request to `url`. */
function attempts(url: string, n: number): Array<[string, Record<string, unknown>]> {
  return [
    ['http_request', { url: `${url}api/rpc/decideApproval`, method: 'POST', body: '{"decision":"approve_once"}' }],
    ['web_fetch', { url: `${url}#/approvals` }],
    ['download_file', { url: `${url}api/rpc/info`, path: `grabbed-${n}.json` }],
    ['mcp_connect', { name: `self${n}`, url: `${url}mcp`, headers: { authorization: `Bearer ${t.host.token}` } }],
    ['browser_navigate', { url: `${url}#/approvals` }],
  ];
}

beforeAll(async () => {
  requireChromium();
  other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('another local app'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
  const perMinute = Object.fromEntries(
    ['http_request', 'web_fetch', 'download_file', 'mcp_connect', 'browser_navigate'].map((id) => [id, 10_000]),
  );
  t = await startTestHost({ approvalTimeoutMs: 60_000, rateLimitPerMinute: perMinute });
  // The test stands in for a person who approves every gated call: only the self guard may refuse.
  t.host.approvals.onEvent((e) => {
    if (e.type === 'pending') t.host.approvals.answer(e.item.approvalId, { decision: 'approve_once', decider: 'test' });
  });
  traffic = watchHostTraffic(t.host.address.port);
  client = await connectClient(t.host, 'hostile-agent');
});
afterAll(async () => {
  traffic?.dispose();
  await client?.close();
  await t?.dispose();
  other?.closeAllConnections();
  other?.close();
});

describe("the host's own port", () => {
  for (const blocked of [false, true]) {
    const setting = `networkBlockPrivateAddresses ${blocked ? 'on' : 'off'}`;
    it(`is refused for every tool on every spelling of this machine (${setting})`, async () => {
      await t.host.api.updateSettings({ changes: { networkBlockPrivateAddresses: blocked } });
      let n = 0;
      for (const host of SPELLINGS) {
        for (const [tool, args] of attempts(`http://${host}:${t.host.address.port}/`, n++)) {
          const answer = await call(tool, args);
          expect([host, tool, answer.error, answer.text]).toEqual([host, tool, true, expect.stringMatching(REFUSED)]);
        }
      }
      expect([traffic.foreignConnections(), traffic.foreignRequests()]).toEqual([0, 0]);
    });
  }

  it('is refused however the URL spells its default port or scheme', async () => {
    await t.host.api.updateSettings({ changes: { networkBlockPrivateAddresses: false } });
    const port = t.host.address.port;
    for (const url of [
      `HTTP://127.0.0.1:${port}/`,
      `http://127.0.0.1:0${port}/`,
      `http://user:pw@localhost:${port}/`,
    ]) {
      const answer = await call('web_fetch', { url });
      expect([url, answer.text]).toEqual([url, expect.stringMatching(REFUSED)]);
    }
  });
});

describe('other loopback ports', () => {
  it('stay reachable while networkBlockPrivateAddresses is off, for the local apps under test', async () => {
    await t.host.api.updateSettings({ changes: { networkBlockPrivateAddresses: false } });
    const answer = await call('web_fetch', { url: otherUrl });
    expect([answer.error, answer.text]).toEqual([false, expect.stringContaining('another local app')]);
    expect((await call('browser_navigate', { url: otherUrl })).error).toBe(false);
  });

  it('are refused by the network tools when it is on, with the setting named', async () => {
    await t.host.api.updateSettings({ changes: { networkBlockPrivateAddresses: true } });
    const answer = await call('web_fetch', { url: otherUrl });
    expect(answer.text).toMatch(/PERMISSION_DENIED: .*networkBlockPrivateAddresses|public web/);
    await t.host.api.updateSettings({ changes: { networkBlockPrivateAddresses: false } });
  });
});

describe('the self guard itself', () => {
  it('judges every address of this machine as this machine, and others not', () => {
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((itf) => itf.address);
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      '0.0.0.0',
      '::',
      ...own,
    ])
      expect([address, isThisMachine(address)]).toEqual([address, true]);
    for (const address of ['93.184.216.34', '2606:4700::1111', '169.254.169.254', 'example.com'])
      expect([address, isThisMachine(address)]).toEqual([address, false]);
  });

  it("knows the data dir's files as its own, on real paths, and the workspace folder as the tools'", async () => {
    const data = mkdtempSync(join(tmpdir(), 'toolgate-self-'));
    mkdirSync(join(data, 'workspace'));
    writeFileSync(join(data, 'token'), 'secret');
    symlinkSync(join(data, 'token'), join(data, 'workspace', 'link'));
    const self = new SelfGuard({ dataDir: data });
    for (const path of ['token', 'toolgate.db-wal', 'logs/host.log', 'host.json', '', 'workspace/link'])
      expect([path, self.ownsPath(join(data, path))]).toEqual([path, true]);
    for (const path of [join(data, 'workspace'), join(data, 'workspace', 'notes.txt'), tmpdir()])
      expect([path, self.ownsPath(path)]).toEqual([path, false]);
    await removeDir(data);
  });

  it("tells a launched browser nothing resolves on Toolgate's port, and on 80/443 only this machine's names", () => {
    expect(unreachablePortArgs([])).toEqual([]);
    expect(unreachablePortArgs([47123])).toEqual(['--host-resolver-rules=MAP *:47123 ~NOTFOUND']);
    const web = unreachablePortArgs([443])[0] ?? '';
    expect(web).toContain('MAP localhost:443 ~NOTFOUND');
    expect(web).toContain('MAP 127.*:443 ~NOTFOUND');
    expect(web).not.toContain('MAP *:443');
  });
});
