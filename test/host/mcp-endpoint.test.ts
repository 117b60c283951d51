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
import { type TestHost, addTestTools, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
let client: Client;
let cancelledSeen = 0;
let slowStarted = 0;

beforeAll(async () => {
  t = await startTestHost();
  addTestTools(
    t.host,
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
  addTestTools(
    t.host,
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
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(echo).not.toHaveProperty('_meta');
    const batch = tools.find((x) => x.name === 'tool_batch_run');
    expect(batch?.annotations).toEqual({ destructiveHint: false });
    const uninstall = tools.find((x) => x.name === 'app_uninstall');
    expect(uninstall?.annotations).toEqual({ destructiveHint: true, idempotentHint: true });
    expect(uninstall?._meta).toEqual({ 'toolgate/risk': 'HIGH' });
    expect(tools.find((x) => x.name === 'app_launch')).not.toHaveProperty('_meta');
  });

  it('publishes each hint a client could misread, and none the MCP defaults already say', async () => {
    // A client applying the specification's defaults (not read-only, destructive, not idempotent,
    // open-world) to what is listed gets back every hint the tool declares that has a meaning.
    const { tools } = await client.listTools();
    for (const listed of tools) {
      const declared = t.host.registry.get(listed.name)?.metadata.annotations;
      const a = listed.annotations ?? {};
      const readOnly = a.readOnlyHint ?? false;
      expect([listed.name, readOnly], listed.name).toEqual([listed.name, declared?.readOnlyHint]);
      expect(a.openWorldHint ?? true, listed.name).toBe(declared?.openWorldHint);
      if (!readOnly) {
        expect(a.destructiveHint, listed.name).toBe(declared?.destructiveHint);
        expect(a.idempotentHint ?? false, listed.name).toBe(declared?.idempotentHint);
      }
      expect(listed.annotations).not.toHaveProperty('title');
    }
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
