/**
 * Rule: an MCP host that only speaks stdio reaches the same tools through the bridge command,
 * which forwards to the running host with the token; without a running host it says how to
 * start one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedHost, runCli, serve } from './process-harness';
import { textOf } from './harness';
import { openPersonSession } from '../support/person-session';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-bridge-'));
let served: ServedHost;
beforeAll(async () => {
  served = await serve(dir);
});
afterAll(async () => {
  served?.child.kill('SIGTERM');
  await served?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe('the stdio bridge', () => {
  it('lists and calls the host’s tools over stdio, started with the exact command the host advertises', async () => {
    const person = await openPersonSession(served.ready.uiLink);
    const info = (await person.rpc('info')).body as { stdioBridge: { command: string; args: string[] } };
    expect(info.stdioBridge.args).toEqual([
      expect.stringMatching(/bin[/\\]toolgate\.cjs$/),
      'mcp-stdio',
      '--data-dir',
      dir,
    ]);
    const client = new Client({ name: 'stdio-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: info.stdioBridge.command,
        args: info.stdioBridge.args,
        env: { ...process.env, TOOLGATE_QUIET: '1' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('version_compare');
    const ok = await client.callTool({
      name: 'version_compare',
      arguments: { operation: 'compare', a: '1.2.0', b: '1.10.0' },
    });
    expect(ok.isError).toBeFalsy();
    const bad = await client.callTool({ name: 'version_compare', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('INVALID_ARGUMENT');
    await client.close();
  });

  it('explains how to start a host when none is running', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'toolgate-nohost-'));
    const child = runCli(['mcp-stdio', '--data-dir', empty]);
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    expect(await new Promise((r) => child.on('exit', r))).toBe(2);
    expect(err).toContain('npm run serve');
    rmSync(empty, { recursive: true, force: true });
  });
});
