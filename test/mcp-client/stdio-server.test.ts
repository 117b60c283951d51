/**
 * Rule: mcp_connect starts a program only after approval of its exact command line; the remote
 * tools become gated, traced `mcp.<server>.<tool>` proxies carrying the server's annotations;
 * mcp_call runs them as nested calls through the pipeline; remote failures and dead servers come
 * back as EXECUTION_FAILED (with a hint to reconnect), and disconnect unregisters the proxies.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProgressUpdate } from '../../tools/core/tool';
import { failed, type McpHarness, mcpHarness, STDIO_FIXTURE, stdioArgs, text, until } from './harness';

let h: McpHarness;
let scratch: string;
beforeEach(() => {
  h = mcpHarness();
  scratch = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
});
afterEach(async () => {
  await h.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const proxies = () => h.registry.ids().filter((id) => id.startsWith('mcp.'));

describe('mcp_connect refuses and explains', () => {
  it('starts nothing when the person denies the approval', async () => {
    const marker = join(scratch, 'ran');
    h.decide = () => ({ decision: 'deny', reason: 'not this one' });
    const error = failed(
      await h.call('mcp_connect', {
        name: 'evil',
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
      }),
    );
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(existsSync(marker)).toBe(false);
  });

  it('starts nothing when the host launch policy refuses, and says why', async () => {
    await h.dispose();
    h = mcpHarness({
      approve: (launch) => ({
        allow: launch.command === '/usr/bin/allowed',
        reason: `${launch.commandLine} is not on the allowlist`,
      }),
    });
    const marker = join(scratch, 'ran');
    const error = failed(
      await h.call('mcp_connect', {
        name: 'x',
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
      }),
    );
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain('is not on the allowlist');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a call with both a command and a url, or with neither', async () => {
    expect(
      failed(await h.call('mcp_connect', { name: 'x', command: 'node', url: 'http://127.0.0.1:1/mcp' })).code,
    ).toBe('INVALID_ARGUMENT');
    expect(failed(await h.call('mcp_connect', { name: 'x' })).code).toBe('INVALID_ARGUMENT');
    expect(failed(await h.call('mcp_connect', { name: 'bad name', command: 'node' })).data?.fields).toEqual(['name']);
  });

  it('reports a program that does not exist as EXECUTION_FAILED with a PATH hint', async () => {
    const error = failed(await h.call('mcp_connect', { name: 'ghost', command: 'toolgate-no-such-program-xyz' }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.hint).toContain('PATH');
  });

  it('reports a program that exits during startup, with its last output', async () => {
    const error = failed(
      await h.call('mcp_connect', {
        name: 'quits',
        command: process.execPath,
        args: ['-e', 'console.error("boot failed: missing config"); process.exit(2)'],
      }),
    );
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toContain('boot failed: missing config');
    expect(proxies()).toEqual([]);
  });

  it('answers TIMEOUT for a program that never completes the handshake, and stops that program', async () => {
    const pidFile = join(scratch, 'pid');
    const writePid = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));`;
    const script = `${writePid} setInterval(() => {}, 1000)`;
    const error = failed(
      await h.call('mcp_connect', { name: 'mute', command: process.execPath, args: ['-e', script], timeoutMs: 300 }),
    );
    expect(error.code).toBe('TIMEOUT');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !isRunning(pid));
  });

  it('refuses to reuse the name of a live server for another command', async () => {
    expect((await h.call('mcp_connect', stdioArgs())).ok).toBe(true);
    const error = failed(await h.call('mcp_connect', stdioArgs('fixture', { args: [STDIO_FIXTURE, '--other'] })));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['name'] } });
  });
});

describe('remote tool failures', () => {
  beforeEach(async () => {
    expect((await h.call('mcp_connect', stdioArgs())).ok).toBe(true);
  });

  it('turns an isError result into EXECUTION_FAILED carrying the remote text', async () => {
    const error = failed(await h.call('mcp_call', { server: 'fixture', tool: 'fail' }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toContain('the remote tool broke: disk quota exceeded');
  });

  it('answers NOT_FOUND with suggestions for an unknown server or tool', async () => {
    expect(failed(await h.call('mcp_call', { server: 'nope', tool: 'echo' }))).toMatchObject({
      code: 'NOT_FOUND',
      data: { servers: ['fixture'] },
    });
    expect(failed(await h.call('mcp_call', { server: 'fixture', tool: 'ecko' }))).toMatchObject({
      code: 'NOT_FOUND',
      data: { suggestions: ['echo'] },
    });
  });

  it('validates arguments against the remote input schema before calling, naming the field', async () => {
    const error = failed(await h.call('mcp.fixture.echo', { text: 42 }));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['text'] } });
  });

  it('is EXECUTION_FAILED with a reconnect hint once the server dies (mid-call, after) until reconnected', async () => {
    const during = failed(await h.call('mcp_call', { server: 'fixture', tool: 'exit' }));
    expect(during.code).toBe('EXECUTION_FAILED');
    expect(during.hint).toContain('mcp_connect');
    await until(() => h.manager.get('fixture')?.status === 'closed');
    const after = failed(await h.call('mcp.fixture.echo', { text: 'hi' }));
    expect(after.code).toBe('EXECUTION_FAILED');
    expect(after.hint).toContain('reconnect it with mcp_connect');
    expect(after.message).toContain('fixture: exiting on request');
    expect(text(await h.call('mcp_list', {}))).toContain('closed');
    expect((await h.call('mcp_connect', stdioArgs())).ok).toBe(true);
    expect(text(await h.call('mcp.fixture.echo', { text: 'back' }))).toBe('echo: back');
  });
});

describe('connected stdio servers', () => {
  it('asks approval for mcp_connect at HIGH risk showing the program and each argument exactly as given', async () => {
    const args = stdioArgs('fixture', { args: [STDIO_FIXTURE, '--label', 'two words'] });
    const result = await h.call('mcp_connect', args);
    expect(h.approvals).toHaveLength(1);
    expect(h.approvals[0]).toMatchObject({
      toolId: 'mcp_connect',
      risk: 'HIGH',
      args: { command: process.execPath, args: [STDIO_FIXTURE, '--label', 'two words'] },
    });
    expect(text(result)).toContain(`${process.execPath} ${STDIO_FIXTURE} --label 'two words'`);
    expect(h.registry.get('mcp_connect')?.description).toMatch(/exactly as given, without a shell/);
  });

  it('registers each remote tool as mcp.<server>.<tool>, sanitised, with its annotations or MCP defaults', async () => {
    await h.call('mcp_connect', stdioArgs('Fixture-1'));
    expect(proxies()).toEqual([
      'mcp.fixture_1.add',
      'mcp.fixture_1.add_tool',
      'mcp.fixture_1.count',
      'mcp.fixture_1.echo',
      'mcp.fixture_1.env',
      'mcp.fixture_1.exit',
      'mcp.fixture_1.fail',
      'mcp.fixture_1.get_item_v2',
    ]);
    const echo = h.registry.get('mcp.fixture_1.echo');
    expect(echo?.metadata).toMatchObject({
      category: 'mcp',
      risk: 'LOW',
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    });
    expect(echo?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(h.registry.get('mcp.fixture_1.fail')?.metadata).toMatchObject({
      risk: 'HIGH',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    });
    expect(h.registry.get('mcp.fixture_1.get_item_v2')?.metadata.annotations.destructiveHint).toBe(false);
  });

  it('runs mcp_call as a nested pipeline call: the proxy gated and recorded, not just mcp_call', async () => {
    await h.call('mcp_connect', stdioArgs());
    h.approvals.length = 0;
    expect(text(await h.call('mcp_call', { server: 'fixture', tool: 'echo', arguments: { text: 'hi' } }))).toBe(
      'echo: hi',
    );
    expect(h.approvals).toEqual([]);
    expect(h.usage.stats('mcp.fixture.echo')?.count).toBe(1);
    await h.call('mcp_call', { server: 'fixture', tool: 'Get-Item.v2' });
    expect(h.approvals.map((a) => a.toolId)).toEqual([]);
    await h.call('mcp_call', { server: 'fixture', tool: 'env' });
    expect(h.approvals.map((a) => a.toolId)).toEqual(['mcp.fixture.env']);
  });

  it('returns structured content and forwards remote progress', async () => {
    await h.call('mcp_connect', stdioArgs());
    const sum = await h.call('mcp.fixture.add', { a: 2, b: 3 });
    expect(sum.ok && sum.structured).toEqual({ sum: 5 });
    const updates: ProgressUpdate[] = [];
    expect(
      text(
        await h.call(
          'mcp_call',
          { server: 'fixture', tool: 'count', arguments: { n: 3 } },
          { onProgress: (p) => updates.push(p) },
        ),
      ),
    ).toBe('counted to 3');
    // The SDK may deliver the response before the last notification; what arrives is in order.
    expect(updates.length).toBeGreaterThan(0);
    expect(updates).toEqual([1, 2, 3].slice(0, updates.length).map((progress) => ({ progress, total: 3 })));
  });

  it('passes env to the program, lists only its names, scrubs credential-named values from remote output', async () => {
    const env = { FIXTURE_GREETING: 'hello-from-env', FIXTURE_TOKEN: 'tok-secret-value-1' };
    const connected = await h.call('mcp_connect', stdioArgs('fixture', { env }));
    const listed = await h.call('mcp_list', {});
    for (const result of [connected, listed]) {
      expect(JSON.stringify(result)).not.toContain('hello-from-env');
      expect(JSON.stringify(result)).not.toContain('tok-secret-value-1');
    }
    expect(listed.ok && listed.structured).toMatchObject({
      servers: [{ envKeys: ['FIXTURE_GREETING', 'FIXTURE_TOKEN'] }],
    });
    expect(text(await h.call('mcp.fixture.env', {}))).toBe('greeting=hello-from-env token=[redacted]');
  });

  it('returns the live session when connecting the same spec again', async () => {
    await h.call('mcp_connect', stdioArgs());
    const again = await h.call('mcp_connect', stdioArgs());
    expect(again.ok && again.structured).toMatchObject({ name: 'fixture', status: 'connected' });
    expect(h.manager.list()).toHaveLength(1);
  });

  it('registers tools the server adds later (tools/list_changed)', async () => {
    await h.call('mcp_connect', stdioArgs());
    await h.call('mcp_call', { server: 'fixture', tool: 'add_tool' });
    await until(() => h.registry.has('mcp.fixture.late'));
    expect(text(await h.call('mcp.fixture.late', {}))).toBe('late tool');
  });

  it('lists servers with their command line, status and tool ids', async () => {
    await h.call('mcp_connect', stdioArgs());
    const listing = text(await h.call('mcp_list', {}));
    expect(listing).toContain(
      `MCP server 'fixture' (stdio: ${process.execPath} ${STDIO_FIXTURE}) — connected, fixture-stdio 1.2.3; 8 tools:`,
    );
    expect(listing).toContain('mcp.fixture.echo — Echo the text back. [read-only]');
    expect(failed(await h.call('mcp_list', { server: 'other' })).code).toBe('NOT_FOUND');
  });

  it('unregisters the proxies on disconnect', async () => {
    await h.call('mcp_connect', stdioArgs());
    expect(proxies()).toHaveLength(8);
    expect(await h.manager.disconnect('fixture')).toBe(true);
    expect(proxies()).toEqual([]);
    expect(text(await h.call('mcp_list', {}))).toContain('No MCP servers are connected');
  });
});
