/**
 * Rule: a client reaches only the tools of the toolsets its token allows. A session starts with
 * those (fewer when `/mcp?toolsets=` asks for fewer, never more), may turn on others the token
 * allows with toolset_enable and is told with `notifications/tools/list_changed`; any other tool
 * is NOT_FOUND, also as a batch step, with the toolset to turn on or, when the token does not allow
 * it, the word that a person must add it on the Overview page. The default client has the default
 * profile (device + orchestration) until the person changes it, and a person's change reaches open
 * sessions at once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

let t: TestHost;
let person: PersonSession;
const open: Client[] = [];

beforeAll(async () => {
  t = await startTestHost({ defaultClient: 'default profile' });
  person = await openPersonSession(t.host.uiLink());
  writeFileSync(join(t.dataDir, 'workspace', 'note.txt'), 'hello');
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await t?.dispose();
});

async function connect(token: string, query = ''): Promise<{ client: Client; listChanged: () => number }> {
  const client = new Client({ name: 'toolset-agent', version: '1.0.0' });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changes++;
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.host.address.mcp}${query}`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  open.push(client);
  return { client, listChanged: () => changes };
}

async function createClient(name: string, toolsets: string[]): Promise<{ id: string; token: string }> {
  const r = await person.rpc('createClientToken', { name, toolsets });
  expect(r.status).toBe(200);
  const body = r.body as { client: { id: string; toolsets: string[] }; token: string };
  expect(body.client.toolsets).toEqual(toolsets);
  return { id: body.client.id, token: body.token };
}

const toolsetOf = (names: string[], registry = t.host.registry) =>
  new Set(names.map((n) => registry.toolsetOf(n)?.name));

describe('the default client', () => {
  it('lists the default profile: device, orchestration and the three toolset tools, nothing else', async () => {
    const client = await connectClient(t.host, 'profile-agent');
    open.push(client);
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(toolsetOf(names)).toEqual(new Set(['device', 'orchestration', 'toolsets']));
    expect(names).toEqual(expect.arrayContaining(['toolset_list', 'toolset_describe', 'toolset_enable', 'ui_dump']));
    expect(names).not.toContain('read_file');
    expect(names).not.toContain('shell_execute');
  });

  it('gets NOT_FOUND for a tool of a toolset it may not use, saying a person adds it on the Overview', async () => {
    const client = await connectClient(t.host, 'profile-agent');
    open.push(client);
    const r = await client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      "Error: NOT_FOUND: Tool 'read_file' is in toolset 'files', which client 'default' may not use.\n" +
        "Hint: A person must add toolset 'files' to client 'default' " +
        "on Toolgate's Overview page; until then, do without read_file.",
    );
    expect(r.structuredContent).toMatchObject({ code: 'NOT_FOUND', data: { toolset: 'files', allowed: false } });
  });

  it('cannot turn on a toolset its token does not allow', async () => {
    const client = await connectClient(t.host, 'profile-agent');
    open.push(client);
    const r = await client.callTool({ name: 'toolset_enable', arguments: { toolset: 'files' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("PERMISSION_DENIED: Client 'default' may not use toolset 'files'.");
    expect(textOf(r)).toContain("on Toolgate's Overview page; do not retry until then.");
    expect((await client.listTools()).tools.map((x) => x.name)).not.toContain('read_file');
  });

  it('cannot reach such a tool as a step of a batch either', async () => {
    const client = await connectClient(t.host, 'profile-agent');
    open.push(client);
    const r = await client.callTool({
      name: 'tool_batch_run',
      arguments: { steps: [{ tool: 'read_file', args: { path: 'note.txt' } }] },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("Tool 'read_file' is in toolset 'files', which client 'default' may not use.");
    expect(textOf(r)).not.toContain('hello');
  });
});

describe('a client a person created with chosen toolsets', () => {
  it('lists exactly those toolsets, and ?toolsets= narrows them but never widens', async () => {
    const { token } = await createClient('laptop', ['files', 'device']);
    const all = await connect(token);
    expect(toolsetOf((await all.client.listTools()).tools.map((x) => x.name))).toEqual(
      new Set(['files', 'device', 'toolsets']),
    );
    const narrowed = await connect(token, '?toolsets=files,browser,nonsense');
    expect(toolsetOf((await narrowed.client.listTools()).tools.map((x) => x.name))).toEqual(
      new Set(['files', 'toolsets']),
    );
  });

  it('turns on an allowed toolset at run time: list_changed, then the tools are listed and callable', async () => {
    const { token } = await createClient('editor', ['files', 'structured']);
    const s = await connect(token, '?toolsets=structured');
    const before = await s.client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(textOf(before)).toBe(
      "Error: NOT_FOUND: Tool 'read_file' is in toolset 'files', which is off in this session.\n" +
        'Hint: Call toolset_enable with {"toolset":"files"}, then call read_file again.',
    );
    const listed = await s.client.callTool({ name: 'toolset_list', arguments: {} });
    expect(textOf(listed)).toMatch(/^files \(off; 8 tools, [\d.]+ KB\): /m);
    expect(textOf(listed)).toMatch(/^browser \(not allowed; /m);
    const on = await s.client.callTool({ name: 'toolset_enable', arguments: { toolset: 'files' } });
    expect(on.isError).toBeFalsy();
    expect(textOf(on)).toMatch(/^Toolset 'files' is on; the tool list changed\.\nIts tools: .*read_file/);
    await expect.poll(s.listChanged, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await s.client.listTools()).tools.map((x) => x.name)).toContain('read_file');
    const after = await s.client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(after.isError).toBeFalsy();
    expect(textOf(after)).toContain('hello');
  });

  it('turns a toolset off, but never the toolset tools themselves', async () => {
    const { token } = await createClient('reader', ['files']);
    const s = await connect(token);
    const off = await s.client.callTool({ name: 'toolset_enable', arguments: { toolset: 'files', enabled: false } });
    expect(textOf(off)).toBe("Toolset 'files' is off; the tool list changed.");
    expect((await s.client.listTools()).tools.map((x) => x.name)).not.toContain('read_file');
    const never = await s.client.callTool({
      name: 'toolset_enable',
      arguments: { toolset: 'toolsets', enabled: false },
    });
    expect(textOf(never)).toContain("INVALID_ARGUMENT: Toolset 'toolsets' is always on.");
    const unknown = await s.client.callTool({ name: 'toolset_describe', arguments: { toolset: 'filez' } });
    expect(textOf(unknown)).toMatch(/^Error: NOT_FOUND: No toolset 'filez'\. Toolsets: .*files/);
  });

  it('loses a toolset the person takes away at once, in its open session, with list_changed', async () => {
    const { id, token } = await createClient('tablet', ['files', 'structured']);
    const s = await connect(token);
    expect((await s.client.listTools()).tools.map((x) => x.name)).toContain('read_file');
    const r = await person.rpc('setClientToolsets', { id, toolsets: ['structured'] });
    expect(r.body).toEqual({ ok: true, message: "Client 'tablet' may now use: structured." });
    await expect.poll(s.listChanged, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await s.client.listTools()).tools.map((x) => x.name)).not.toContain('read_file');
    const refused = await s.client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(textOf(refused)).toContain("which client 'tablet' may not use");
  });

  it('cannot be given a toolset that does not exist', async () => {
    const r = await person.rpc('createClientToken', { name: 'typo', toolsets: ['filez'] });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("No toolset named 'filez'");
  });
});

describe('the default client after the person changes it', () => {
  it('has the new toolsets, also after the host restarts', async () => {
    const first = await startTestHost({ defaultClient: 'default profile' });
    const owner = await openPersonSession(first.host.uiLink());
    const r = await owner.rpc('setClientToolsets', { id: 'default', toolsets: ['files'] });
    expect(r.body).toEqual({ ok: true, message: "Client 'default' may now use: files." });
    const tokens = (await owner.rpc('clientTokens', {})).body as Array<{ name: string; toolsets: string[] }>;
    expect(tokens.find((c) => c.name === 'default')?.toolsets).toEqual(['files']);
    await first.host.close();
    const second = await startTestHost({ dataDir: first.dataDir, defaultClient: 'default profile' });
    try {
      const client = await connectClient(second.host, 'after-restart');
      open.push(client);
      expect(
        toolsetOf(
          (await client.listTools()).tools.map((x) => x.name),
          second.host.registry,
        ),
      ).toEqual(new Set(['files', 'toolsets']));
    } finally {
      await second.dispose();
      await first.dispose();
    }
  });
});
