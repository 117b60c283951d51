/** Starts a real host on a free port in a temporary data dir, and real MCP clients against it. */
import { mkdtempSync } from 'node:fs';
import { freePort, killAdbServer } from '../support/private-adb';
import { removeDir } from '../support/remove-dir';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Host, type HostOptions, startHost } from '../../tools/host/host';

process.env.TOOLGATE_QUIET = '1';

export interface TestHost {
  host: Host;
  dataDir: string;
  dispose(): Promise<void>;
}

/**
 * Every test host gets its own adb server on a free port, so the devices it sees are its own and
 * never another test file's virtual phone.
 */
export async function startTestHost(options: Partial<HostOptions> = {}): Promise<TestHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'toolgate-host-'));
  const adbPort = options.adbPort ?? (await freePort());
  const host = await startHost({ port: 0, ...options, adbPort, dataDir });
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
