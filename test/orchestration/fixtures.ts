/**
 * Small real tools for the orchestration tests, registered in a real ToolRegistry and run by the
 * pipeline the host runs (test/support/family-pipeline.ts), which wires ctx.invoke to itself: a
 * batch's or shortcut's steps meet the gates, breaker and retry as top-level calls do. Every call a
 * test tool receives is recorded, so tests can count calls and read the arguments a step really got.
 */
import { z } from 'zod';
import type { ApprovalRequest } from '../../tools/core/permission';
import type { ToolRegistry } from '../../tools/core/registry';
import { type ToolResult, failure, jsonSuccess, success } from '../../tools/core/result';
import { type ToolCall, type ToolContext, defineTool } from '../../tools/core/tool';
import {
  InMemoryShortcutStore,
  type OrchestrationDeps,
  type ShortcutStore,
  orchestrationTools,
} from '../../tools/orchestration';
import { type FamilyPipeline, familyPipeline } from '../support/family-pipeline';

export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  requester: ToolContext['requester'];
}

const anyArgs = z.record(z.string(), z.unknown());

export function testTools(calls: RecordedCall[], aborted: string[] = []) {
  const record = (tool: string, args: Record<string, unknown>, ctx: ToolContext) =>
    calls.push({ tool, args, requester: ctx.requester });
  return [
    defineTool({
      id: 'echo_text',
      description: 'Returns its text argument.',
      input: z.object({ text: z.string().describe('Text to return.') }),
      metadata: { category: 'utility', risk: 'LOW' },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run(args, ctx) {
        record('echo_text', args, ctx);
        return args.text;
      },
    }),
    defineTool({
      id: 'record_args',
      description: 'Returns the arguments it got, as JSON.',
      input: anyArgs,
      metadata: { category: 'utility', risk: 'LOW' },
      run(args, ctx) {
        record('record_args', args, ctx);
        return jsonSuccess(args);
      },
    }),
    defineTool({
      id: 'big_text',
      description: 'Returns a long text.',
      input: z.object({ bytes: z.number().int().describe('How many characters.') }),
      run(args, ctx) {
        record('big_text', args, ctx);
        return success('x'.repeat(args.bytes));
      },
    }),
    defineTool({
      id: 'fail_step',
      description: 'Always fails.',
      input: anyArgs,
      run(args, ctx) {
        record('fail_step', args, ctx);
        return failure('PERMISSION_DENIED', 'The device refused.');
      },
    }),
    defineTool({
      id: 'hang_until_aborted',
      description: 'Waits until its signal aborts, then reports it.',
      input: anyArgs,
      run(args, ctx) {
        record('hang_until_aborted', args, ctx);
        return new Promise<ToolResult>((resolve) => {
          ctx.signal.addEventListener(
            'abort',
            () => {
              aborted.push(ctx.callId);
              resolve(failure('EXECUTION_FAILED', 'aborted by signal'));
            },
            { once: true },
          );
        });
      },
    }),
    defineTool({
      id: 'get_time',
      description: 'A read-only tool of the catalog (LOW), declared as the real one is.',
      input: anyArgs,
      metadata: { category: 'system', risk: 'LOW' },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      run(args, ctx) {
        record('get_time', args, ctx);
        return '12:00';
      },
    }),
    defineTool({
      id: 'app_uninstall',
      description: 'A destructive tool of the catalog (HIGH by inference).',
      input: z.object({ package: z.string().describe('Package name.') }),
      run(args, ctx) {
        record('app_uninstall', args, ctx);
        return `Uninstalled ${args.package}`;
      },
    }),
  ];
}

export interface Kit {
  registry: ToolRegistry;
  family: FamilyPipeline;
  /** What a person was asked (the test tools of unknown ids and app_uninstall need approval). */
  approvals: ApprovalRequest[];
  store: ShortcutStore;
  calls: RecordedCall[];
  /** Call ids of hang_until_aborted calls whose signal fired. */
  aborted: string[];
  run(toolId: string, args?: unknown, extra?: Partial<ToolCall>): Promise<ToolResult>;
}

/** A registry with the test tools and the orchestration tools; pass a store to simulate a restart. */
export function makeKit(options: Partial<Omit<OrchestrationDeps, 'registry'>> & { store?: ShortcutStore } = {}): Kit {
  const family = familyPipeline();
  const registry = family.registry;
  const calls: RecordedCall[] = [];
  const aborted: string[] = [];
  const store = options.store ?? new InMemoryShortcutStore();
  registry.registerAll(testTools(calls, aborted));
  registry.registerAll(orchestrationTools({ ...options, registry, shortcutStore: store }));
  return {
    registry,
    family,
    approvals: family.approvals,
    store,
    calls,
    aborted,
    run: (toolId, args, extra) => family.call(toolId, args, extra),
  };
}

export function errorOf(result: ToolResult) {
  if (result.ok) throw new Error(`expected a failure, got success: ${JSON.stringify(result.content)}`);
  return result.error;
}

export function structuredOf(result: ToolResult): unknown {
  if (!result.ok) throw new Error(`expected a success, got ${result.error.code}: ${result.error.message}`);
  return result.structured;
}
