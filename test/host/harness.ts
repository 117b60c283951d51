/** Starts a real host on a free port in a temporary data dir, and real MCP clients against it. */
import { mkdtempSync } from 'node:fs';
import { freePort, killAdbServer } from '../support/private-adb';
import { removeDir } from '../support/remove-dir';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Host, type HostOptions, startHost } from '../../tools/host/host';
import type { Tool } from '../../tools/core/tool';
import { defineToolset } from '../../tools/core/toolset';

process.env.TOOLGATE_QUIET = '1';

export interface TestHost {
  host: Host;
  dataDir: string;
  dispose(): Promise<void>;
}

export interface TestHostOptions extends Partial<HostOptions> {
  /**
   * The toolsets of the client "default" (the data dir's token, which connectClient uses): every
   * toolset unless a test asks for the product's own default profile, as a person would find it.
   */
  defaultClient?: 'every toolset' | 'default profile';
}

/** Host options with a GitHub token in the environment: the whole catalog, the GitHub toolset included. */
export function withGithubToken(options: TestHostOptions = {}): TestHostOptions {
  return {
    ...options,
    env: { ...process.env, ...options.env, TOOLGATE_GITHUB_TOKEN: 'ghp_wholeCatalog000000000000000000000001' },
  };
}

/** What tests register on a running host besides the families: the default client may use it. */
export const TEST_TOOLSET = defineToolset('test', 'Tools a test registered.');

/** Gives the client "default" every toolset the host has, as a person can on the Overview page. */
export function allowEveryToolset(host: Host): void {
  host.clientTokens.setToolsets(
    'default',
    host.registry.toolsets().map((t) => t.name),
  );
}

/** Registers tools of a test in the `test` toolset, which the client "default" may use from then on. */
export function addTestTools(host: Host, ...tools: Tool[]): void {
  for (const tool of tools) host.registry.register(tool, 'REPLACE', TEST_TOOLSET);
  allowEveryToolset(host);
}

/**
 * Every test host gets its own adb server on a free port, so the devices it sees are its own and
 * never another test file's virtual phone.
 */
export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const { defaultClient = 'every toolset', ...hostOptions } = options;
  const dataDir = hostOptions.dataDir ?? mkdtempSync(join(tmpdir(), 'toolgate-host-'));
  const adbPort = hostOptions.adbPort ?? (await freePort());
  const host = await startHost({ port: 0, ...hostOptions, adbPort, dataDir });
  if (defaultClient === 'every toolset') allowEveryToolset(host);
  return {
    host,
    dataDir,
    async dispose() {
      await host.close();
      await killAdbServer(adbPort);
      await removeDir(dataDir);
    },
  };
}

/** A real MCP client over HTTP, with the data dir's token unless given a client token of its own. */
export async function connectClient(
  host: Pick<Host, 'address' | 'token'>,
  name = 'test-client',
  token = host.token,
): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(host.address.mcp), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? '').join('\n');
}
