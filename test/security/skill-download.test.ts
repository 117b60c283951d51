/**
 * Rule: a skill download never reaches this host or its network. skill_install's https fetch is
 * the network family's guarded fetch with loopback, private and link-local addresses refused
 * (whatever the networkBlockPrivateAddresses setting says), so an agent cannot make Toolgate
 * fetch its own API, a service on the LAN or a cloud metadata endpoint under the cover of a skill
 * install, even with the person's approval.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost } from '../host/harness';
import { answerApprovals } from '../skills/support/approvals';
import { zip } from '../skills/support/archives';
import { type LocalHttps, startHttps } from '../skills/support/https-server';
import { minimalSkill } from '../skills/support/archives';

let t: TestHost;
let client: Client;
let server: LocalHttps;
let approver: ReturnType<typeof answerApprovals>;

beforeAll(async () => {
  server = await startHttps({
    '/kit.zip': (_q, res) => res.writeHead(200).end(zip([{ name: 'lan-kit/SKILL.md', data: minimalSkill('lan-kit') }])),
  });
  t = await startTestHost();
  client = await connectClient(t.host, 'download-attacker');
  approver = answerApprovals(t.host);
});
afterAll(async () => {
  approver?.stop();
  await client?.close();
  await t?.dispose();
  await server?.close();
});

async function installFrom(source: string) {
  const r = await client.callTool({ name: 'skill_install', arguments: { source } });
  return r.structuredContent as { code: string; message: string; data?: Record<string, unknown> };
}

describe('skill downloads stay on the public web', () => {
  it('refuses an https server on loopback, and no request reaches it', async () => {
    const r = await installFrom(`${server.url}/kit.zip`);
    expect(r.code).toBe('PERMISSION_DENIED');
    expect(r.message).toMatch(/loopback or private-network address \(127\.0\.0\.1\)/);
    expect(server.hits).toEqual([]);
    expect((await t.host.api.skills({})).map((s) => s.name)).not.toContain('lan-kit');
  });

  it("refuses the host's own address", async () => {
    const r = await installFrom(`https://127.0.0.1:${t.host.address.port}/api/rpc/info`);
    expect(r.code).toBe('PERMISSION_DENIED');
  });

  it.each([
    'https://10.0.0.1/kit.zip',
    'https://192.168.1.10/kit.zip',
    'https://[::1]/kit.zip',
    'https://169.254.169.254/latest/meta-data',
  ])('refuses %s', async (url) => {
    const r = await installFrom(url);
    expect([r.code, r.data?.gate]).toEqual(['PERMISSION_DENIED', 'network']);
  });
});
