/**
 * Rule: an agent reaches every tool over MCP (Streamable HTTP, stateful sessions) and every
 * tools/call runs through the pipeline. Failures are results with isError, the rendered text and
 * {code, message, hint}; an unknown tool gets suggestions; long tools send progress; a client's
 * cancellation aborts the tool.
 */
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedName } from '../../tools/core/published-name';
import { defineTool } from '../../tools/core/tool';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
let cancelledSeen = 0;
let slowStarted = 0;

beforeAll(async () => {
  t = await startTestHost();
  t.host.registry.register(
    defineTool({
      id: 'echo_structured',
      description: 'Echo a value as structured output.',
      input: z.object({
        value: z.string().describe('Value to echo'),
        count: z.number().int().min(1).optional().describe('Repeat count'),
      }),
      output: z.object({ echoed: z.string() }),
      metadata: { risk: 'LOW', category: 'utility' },
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      run: ({ value, count }) => ({
        ok: true,
        content: [{ type: 'text', text: value.repeat(count ?? 1) }],
        structured: { echoed: value.repeat(count ?? 1) },
      }),
    }),
  );
  t.host.registry.register(
    defineTool({
      id: 'slow_wait_signal',
      description: 'Waits until cancelled.',
      input: z.object({}),
      metadata: { risk: 'LOW', category: 'utility' },
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      runPolicy: 'selfBounded',
      run: (_a, ctx) =>
        new Promise((resolve) => {
          slowStarted++;
          ctx.signal.addEventListener('abort', () => {
            cancelledSeen++;
            resolve('aborted');
          });
        }),
    }),
  );
  client = await connectClient(t.host);
});

afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('tools/list', () => {
  it('lists every registered tool with title, JSON Schema, annotations and output schema', async () => {
    const { tools } = await client.listTools();
    // Dotted ids (the bundled skills' tools) are listed under their published names.
    expect(tools.map((x) => x.name).sort()).toEqual(t.host.registry.ids().map(publishedName).sort());
    const echo = tools.find((x) => x.name === 'echo_structured');
    expect(echo).toMatchObject({
      title: 'Echo structured',
      inputSchema: {
        type: 'object',
        properties: { value: { type: 'string', description: 'Value to echo' } },
        required: ['value'],
      },
      outputSchema: { type: 'object', properties: { echoed: { type: 'string' } } },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
    const batch = tools.find((x) => x.name === 'tool_batch_run');
    expect(batch?.annotations?.destructiveHint).toBe(false);
  });

  it('publishes the built-in catalog under names every MCP client accepts', async () => {
    // Claude Desktop refuses a server's whole tool list when one name does not match this.
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).filter((name) => !/^[a-zA-Z0-9_-]{1,64}$/.test(name))).toEqual([]);
  });
});

describe('tools/call', () => {
  it('runs a tool and returns its text and structured content', async () => {
    const r = await client.callTool({ name: 'echo_structured', arguments: { value: 'ab', count: 2 } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toBe('abab');
    expect(r.structuredContent).toEqual({ echoed: 'abab' });
  });

  it('answers bad arguments with an isError result naming the field', async () => {
    const r = await client.callTool({ name: 'version_compare', arguments: { nonsense: true } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Error: INVALID_ARGUMENT: /);
    expect(r.structuredContent).toMatchObject({ code: 'INVALID_ARGUMENT', hint: 'Fix the arguments and retry.' });
  });

  it('answers an unknown tool with suggestions, not a protocol error', async () => {
    const r = await client.callTool({ name: 'version_compar', arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("Unknown tool 'version_compar'. Did you mean: version_compare?");
    expect(r.structuredContent).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('traces the call it ran', async () => {
    await client.callTool({ name: 'echo_structured', arguments: { value: 'traced' } });
    const spans = t.host.pipeline.trace.spans({ toolId: 'echo_structured' });
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.at(-1)).toMatchObject({ toolId: 'echo_structured', outcome: 'success', requesterKind: 'mcp' });
    expect(JSON.stringify(spans)).not.toContain('traced');
  });

  it('sends progress notifications for a long tool when asked', async () => {
    const seen: number[] = [];
    const r = await client.callTool({ name: 'wait', arguments: { seconds: 3.5 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
      timeout: 30_000,
    });
    expect(r.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThan(0);
  });

  it('aborts the running tool when the client cancels', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow_wait_signal', arguments: {} }, undefined, { signal: controller.signal });
    await expect.poll(() => slowStarted, { timeout: 10_000 }).toBe(1);
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    await expect.poll(() => cancelledSeen, { timeout: 10_000 }).toBe(1);
  });
});
