/**
 * Rule: a tool that scopes its breaker (a device tool, per phone) gets one breaker per target, so
 * a target that keeps failing is paused alone and the same tool keeps working on the others.
 * The target comes from the arguments, so it is named by a digest, never by its text.
 * A tool without a scope keeps one breaker, as the seed describes.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ToolCallError, ToolRegistry, defineTool } from '../../tools/core';
import { CircuitBreakers, assemblePipeline, breakerKey, scopeDigest } from '../../tools/core/pipeline';
import { ManualClock } from '../support/manual-clock';

function setup(scoped: boolean) {
  const clock = new ManualClock(0);
  const registry = new ToolRegistry();
  const ran: string[] = [];
  registry.register(
    defineTool({
      id: 'ui_tap',
      description: 'Tap on a phone.',
      input: z.object({ serial: z.string().describe('Phone') }),
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: true },
      ...(scoped ? { breakerScope: (args: { serial: string }) => args.serial } : {}),
      run: ({ serial }) => {
        ran.push(serial);
        if (serial === 'unplugged') throw new ToolCallError('EXECUTION_FAILED', 'device offline');
        return 'tapped';
      },
    }),
  );
  const breakers = new CircuitBreakers({ clock, failureThreshold: 2 });
  return { ran, breakers, executor: assemblePipeline(registry, { breakers, clock }) };
}

describe('breaker scope', () => {
  it('pauses only the failing target when the tool scopes its breaker, naming it by digest', async () => {
    const { executor, ran, breakers } = setup(true);
    await executor.execute({ toolId: 'ui_tap', args: { serial: 'unplugged' } });
    await executor.execute({ toolId: 'ui_tap', args: { serial: 'unplugged' } });
    const refused = await executor.execute({ toolId: 'ui_tap', args: { serial: 'unplugged' } });
    expect(!refused.ok && refused.error.code).toBe('CIRCUIT_OPEN');
    expect(!refused.ok && refused.error.message).toContain(
      `Tool 'ui_tap' is paused for target ${scopeDigest('unplugged')}`,
    );
    expect(!refused.ok && refused.error.message).not.toContain('unplugged');
    const other = await executor.execute({ toolId: 'ui_tap', args: { serial: 'healthy' } });
    expect(other.ok).toBe(true);
    expect(ran).toEqual(['unplugged', 'unplugged', 'healthy']);
    expect(breakers.state(breakerKey('ui_tap', 'unplugged')).state).toBe('open');
    expect(breakers.state(breakerKey('ui_tap', 'healthy')).state).toBe('closed');
    expect(breakers.states().map((v) => v.toolId)).toEqual([`ui_tap@${scopeDigest('unplugged')}`]);
  });

  it('keeps one breaker for the whole tool without a scope', async () => {
    const { executor, ran } = setup(false);
    await executor.execute({ toolId: 'ui_tap', args: { serial: 'unplugged' } });
    await executor.execute({ toolId: 'ui_tap', args: { serial: 'unplugged' } });
    const other = await executor.execute({ toolId: 'ui_tap', args: { serial: 'healthy' } });
    expect(!other.ok && other.error.code).toBe('CIRCUIT_OPEN');
    expect(ran).toEqual(['unplugged', 'unplugged']);
  });
});
