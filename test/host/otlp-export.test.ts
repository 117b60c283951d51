/**
 * Rule: with an OTLP endpoint set, every span reaches the collector as OTLP/HTTP JSON following
 * the GenAI conventions (`execute_tool {tool}`), nested calls join their parent's trace, and no
 * argument text (a secret) is ever sent: a failure travels with its cleaned error text, a refusal
 * with who decided it. A collector that is down never disturbs the calls.
 */
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, startTestHost } from './harness';

let t: TestHost;
let collector: Server;
const received: Array<{ path: string; body: string }> = [];

beforeAll(async () => {
  collector = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', () => r()));
  t = await startTestHost();
});
afterAll(async () => {
  collector?.close();
  await t?.dispose();
});

type OtlpSpan = {
  traceId: string;
  spanId: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status: { code: number };
};
const spansReceived = (): OtlpSpan[] =>
  received.flatMap((r) =>
    (
      JSON.parse(r.body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }
    ).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)),
  );
const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value;

describe('OTLP export', () => {
  it('keeps working calls when the collector is unreachable', async () => {
    await t.host.api.updateSettings({ changes: { otlpEndpoint: 'http://127.0.0.1:9' } });
    const r = await t.host.api.callTool({ toolId: 'calculate', args: { expression: '1+1' } });
    expect(r.ok).toBe(true);
  });

  it('sends every span with the GenAI names, and never an argument', async () => {
    const port = (collector.address() as AddressInfo).port;
    await t.host.api.updateSettings({ changes: { otlpEndpoint: `http://127.0.0.1:${port}` } });
    const secret = 'sk-live-DO-NOT-LEAK-4242';
    await t.host.api.callTool({ toolId: 'text_transform', args: { text: secret, operation: 'upper' } });
    await t.host.api.callTool({
      toolId: 'tool_batch_run',
      args: { steps: [{ tool: 'calculate', args: { expression: '2*21' } }] },
    });
    await expect
      .poll(() => spansReceived().filter((s) => attr(s, 'gen_ai.tool.name')?.stringValue === 'calculate').length, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    expect(received.every((r) => r.path === '/v1/traces')).toBe(true);
    const spans = spansReceived();
    const upper = spans.find((s) => s.name === 'execute_tool text_transform');
    expect(upper).toBeDefined();
    expect(attr(upper!, 'gen_ai.operation.name')).toEqual({ stringValue: 'execute_tool' });
    expect(upper!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(upper!.spanId).toMatch(/^[0-9a-f]{16}$/);
    const batch = spans.find((s) => s.name === 'execute_tool tool_batch_run')!;
    const step = spans.find((s) => s.name === 'execute_tool calculate' && attr(s, 'toolgate.parent_call_id'))!;
    expect(step.traceId).toBe(batch.traceId);
    expect(received.map((r) => r.body).join('')).not.toContain(secret);
  });

  it("sends a failure's cleaned error text, with the argument as a placeholder", async () => {
    const path = 'private/hunter2-diary.txt';
    await t.host.api.callTool({ toolId: 'read_file', args: { path } });
    await expect
      .poll(() => spansReceived().find((s) => s.name === 'execute_tool read_file'), { timeout: 10_000 })
      .toBeDefined();
    const failed = spansReceived().find((s) => s.name === 'execute_tool read_file')!;
    expect(attr(failed, 'error.type')).toEqual({ stringValue: 'NOT_FOUND' });
    expect(attr(failed, 'toolgate.error_text')).toEqual({ stringValue: 'Cannot read "‹path›": it does not exist.' });
    expect(received.map((r) => r.body).join('')).not.toContain('hunter2');
  });

  it('says who decided a refusal, so a collector tells a rule from a person', async () => {
    await t.host.api.addApprovalRule({ effect: 'deny', rule: 'delete_file path=kept/**' });
    const r = await t.host.api.callTool({ toolId: 'delete_file', args: { path: 'kept/ledger.txt' } });
    expect(r.ok).toBe(false);
    await expect
      .poll(() => spansReceived().find((s) => s.name === 'execute_tool delete_file'), { timeout: 10_000 })
      .toBeDefined();
    const refused = spansReceived().find((s) => s.name === 'execute_tool delete_file')!;
    expect(attr(refused, 'error.type')).toEqual({ stringValue: 'PERMISSION_DENIED' });
    expect(attr(refused, 'toolgate.decided_by')).toEqual({ stringValue: 'rule' });
    expect(received.map((r) => r.body).join('')).not.toContain('ledger');
  });
});
