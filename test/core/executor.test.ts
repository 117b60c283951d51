/**
 * Rule (v2 pipeline): lookup → permission → validation → run → result. Whatever a tool does, the
 * caller gets a ToolResult; nothing escapes as an exception.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { DefaultToolExecutor } from '../../tools/core/executor';
import { type ApprovalDecision, ToolPermissionManager } from '../../tools/core/permission';
import { ToolRegistry } from '../../tools/core/registry';
import { ToolCallError, renderResult } from '../../tools/core/result';
import { defineTool } from '../../tools/core/tool';
import { ToolUsageTracker } from '../../tools/core/usage-tracker';

function setup(decision: ApprovalDecision = { decision: 'approve_once' }) {
  const registry = new ToolRegistry();
  const ran: string[] = [];
  const order: string[] = [];
  registry.registerAll([
    defineTool({
      id: 'echo_text',
      description: 'Echo',
      input: z.object({ text: z.string().describe('Text') }),
      run: ({ text }) => (ran.push('echo_text'), text),
    }),
    defineTool({
      id: 'throws_tool',
      description: 'Throws',
      input: z.object({}),
      run: () => {
        throw new Error('disk on fire');
      },
    }),
    defineTool({
      id: 'rejects_tool',
      description: 'Rejects',
      input: z.object({}),
      run: async () => Promise.reject(new TypeError('bad state')),
    }),
    defineTool({
      id: 'garbage_tool',
      description: 'Garbage',
      input: z.object({}),
      run: () => ({ nope: true }) as never,
    }),
    defineTool({
      id: 'coded_tool',
      description: 'Coded',
      input: z.object({}),
      run: () => {
        throw new ToolCallError('NOT_FOUND', 'no such element', { hint: 'Take a new snapshot.' });
      },
    }),
    defineTool({
      id: 'app_uninstall',
      description: 'Uninstall',
      input: z.object({ packageName: z.string().describe('Package') }),
      run: () => (ran.push('app_uninstall'), 'removed'),
    }),
    defineTool({
      id: 'nested_tool',
      description: 'Nested',
      input: z.object({}),
      run: (_a, ctx) => ctx.invoke({ toolId: 'echo_text', args: { text: 'inner' } }),
    }),
  ]);
  const usage = new ToolUsageTracker();
  const permissions = new ToolPermissionManager(async (req) => (order.push(`ask:${req.toolId}`), decision));
  return { registry, ran, order, usage, executor: new DefaultToolExecutor(registry, { permissions, usage }) };
}

describe('DefaultToolExecutor', () => {
  it('answers an unknown tool with suggestions as a NOT_FOUND result', async () => {
    const { executor } = setup();
    const r = await executor.execute({ toolId: 'echo_txt', args: {} });
    expect(renderResult(r)).toBe(
      "Error: NOT_FOUND: Unknown tool 'echo_txt'. Did you mean: " +
        'echo_text?\nHint: Call one of the suggested tools instead.',
    );
  });

  it('answers an unknown tool with no near name without listing the catalog', async () => {
    const { executor } = setup();
    const r = await executor.execute({ toolId: 'zzzzzz', args: {} });
    expect(renderResult(r)).toBe(
      "Error: NOT_FOUND: Unknown tool 'zzzzzz'.\nHint: List the available tools and pick one of those.",
    );
  });

  it('returns INVALID_ARGUMENT naming the field and does not run the tool', async () => {
    const { executor, ran } = setup();
    const r = await executor.execute({ toolId: 'echo_text', args: { text: 5 } });
    expect(r.ok === false && r.error.message).toBe(
      'Invalid arguments: argument "text": expected string, received number.',
    );
    expect(ran).toEqual([]);
  });

  it('turns a throwing tool into EXECUTION_FAILED', async () => {
    const { executor } = setup();
    expect(await executor.execute({ toolId: 'throws_tool' })).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: "Tool 'throws_tool' failed: disk on fire" },
    });
    expect(await executor.execute({ toolId: 'rejects_tool' })).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: "Tool 'rejects_tool' failed: bad state" },
    });
  });

  it('turns a tool returning garbage into EXECUTION_FAILED', async () => {
    const { executor } = setup();
    expect(await executor.execute({ toolId: 'garbage_tool' })).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED' },
    });
  });

  it('keeps the code of a ToolCallError a tool threw', async () => {
    const { executor } = setup();
    expect(renderResult(await executor.execute({ toolId: 'coded_tool' }))).toBe(
      'Error: NOT_FOUND: no such element\nHint: Take a new snapshot.',
    );
  });

  it('asks permission before validation, and a denial stops the call', async () => {
    const { executor, ran, order } = setup({ decision: 'deny', reason: 'no' });
    const r = await executor.execute({ toolId: 'app_uninstall', args: {} });
    expect(r).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(order).toEqual(['ask:app_uninstall']);
    expect(ran).toEqual([]);
  });

  it('runs an approved destructive tool', async () => {
    const { executor, ran } = setup();
    expect(renderResult(await executor.execute({ toolId: 'app_uninstall', args: { packageName: 'com.x' } }))).toBe(
      'removed',
    );
    expect(ran).toEqual(['app_uninstall']);
  });

  it('runs nested calls through the same executor', async () => {
    const { executor, usage } = setup();
    expect(renderResult(await executor.execute({ toolId: 'nested_tool' }))).toBe('inner');
    expect(usage.stats('echo_text')?.count).toBe(1);
  });

  it('records usage for every call that reached a tool id', async () => {
    const { executor, usage } = setup();
    await executor.execute({ toolId: 'echo_text', args: { text: 'a' } });
    await executor.execute({ toolId: 'echo_text', args: {} });
    await executor.execute({ toolId: 'throws_tool' });
    expect(usage.stats('echo_text')).toMatchObject({
      count: 2,
      successes: 1,
      failures: 1,
      lastError: { code: 'INVALID_ARGUMENT' },
    });
    expect(usage.stats('throws_tool')?.failures).toBe(1);
  });

  it('works without any permission manager or tracker', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool({ id: 'app_uninstall', description: 'x', input: z.object({}), run: () => 'gone' }));
    expect(renderResult(await new DefaultToolExecutor(registry).execute({ toolId: 'app_uninstall' }))).toBe('gone');
  });
});
