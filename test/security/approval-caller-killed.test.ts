/**
 * Rule: an approval never outlives its caller, even one that dies without a word. A client process
 * calling `delete_file` is SIGKILLed while the card shows (no notifications/cancelled, no polite
 * close: only its sockets drop). The card is withdrawn, audited as "withdrawn: caller gone", a
 * person's late click is refused and the file is still there. A real MCP client (the official SDK)
 * in its own process over real HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../shared/contract';
import { type TestHost, startTestHost } from '../host/harness';

const CALLER = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const [url, token] = process.argv.slice(-2);
const client = new Client({ name: 'doomed-agent', version: '1.0.0' });
const requestInit = { headers: { authorization: 'Bearer ' + token } };
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
await client.callTool({ name: 'delete_file', arguments: { path: 'keep-me.txt' } }, undefined, { timeout: 600000 });
`;

let t: TestHost;
let caller: ChildProcess | undefined;

beforeAll(async () => {
  t = await startTestHost({ approvalTimeoutMs: 60_000 });
});
afterAll(async () => {
  caller?.kill('SIGKILL');
  await t?.dispose();
});

describe('an approval whose caller process is killed', () => {
  it('is withdrawn, audited, refuses a late approve, and the file is not deleted', async () => {
    const workspace = join(t.dataDir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'keep-me.txt'), 'still here');
    caller = spawn(process.execPath, ['--input-type=module', '-e', CALLER, t.host.address.mcp, t.host.token], {
      cwd: process.cwd(),
      stdio: 'ignore',
    });
    const pending = async (): Promise<PendingApproval[]> => t.host.api.pendingApprovals({});
    await expect.poll(pending, { timeout: 20_000 }).toHaveLength(1);
    const [card] = await pending();
    expect(card).toMatchObject({ toolId: 'delete_file' });

    caller.kill('SIGKILL');
    await expect.poll(pending, { timeout: 10_000 }).toEqual([]);
    const [audit] = await t.host.api.auditLog({ limit: 1 });
    expect(audit).toMatchObject({
      callId: card!.callId,
      decision: 'withdrawn',
      reason: 'caller gone',
      decider: 'system',
    });
    const late = await t.host.api.decideApproval({ approvalId: card!.approvalId, decision: 'approve_once' });
    expect(late).toMatchObject({ ok: false });
    expect(existsSync(join(workspace, 'keep-me.txt'))).toBe(true);
  });
});
