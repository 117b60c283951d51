/**
 * Rule guarded (docs/architecture.md#every-stage-is-optional, docs/architecture.md#the-pipeline):
 * the pipeline assembled with none of the v3 parts gives the same results as v2's
 * DefaultToolExecutor on the same calls — ok, bad arguments, unknown tools, throwing tools, garbage
 * results, strings and `Error:` strings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DefaultToolExecutor,
  type ProgressUpdate,
  type ToolCall,
  ToolCallError,
  type ToolResult,
  type ToolReturn,
  ToolUsageTracker,
  defineLegacyTool,
  failure,
  imageSuccess,
  jsonSuccess,
  renderResult,
} from '../../tools/core';
import { type ToolPipeline, assemblePipeline } from '../../tools/core/pipeline';
import { DESTRUCTIVE, fixtureTool, registryOf } from './fixtures';

const GARBAGE: Record<string, unknown> = {
  null: null,
  number: 42,
  array: [],
  object: { foo: 1 },
  'bad-content': { ok: true, content: [{ type: 'video' }] },
  'bad-error': { ok: false, error: { code: 'NOPE', message: 'x', hint: 'y' } },
  undefined: undefined,
};

function buildRegistry() {
  return registryOf(
    fixtureTool('echo_text', ({ text, count }) => `echoed ${text} x${count ?? 1}`),
    fixtureTool('json_echo', ({ text }) => jsonSuccess({ text, length: text.length })),
    fixtureTool('image_tool', ({ text }) => imageSuccess(Buffer.from(text), 'image/png', 'a picture')),
    fixtureTool('thrower', () => {
      throw new Error('disk on fire');
    }),
    fixtureTool('async_thrower', async () => {
      await Promise.resolve();
      throw 'oops, a string';
    }),
    fixtureTool('code_thrower', ({ text }) => {
      throw new ToolCallError('NOT_FOUND', `no such thing: ${text}`, {
        hint: 'List things first.',
        data: { wanted: text },
      });
    }),
    fixtureTool('garbage_tool', ({ text }) => GARBAGE[text] as ToolReturn),
    fixtureTool('error_string', ({ text }) => (text === 'bare' ? 'Error:' : `Error: ${text}`)),
    fixtureTool('plain_string', ({ text }) => text),
    fixtureTool('structured_failure', ({ text }) => failure('UNSUPPORTED', `cannot ${text} here`)),
    fixtureTool('context_reader', (_, ctx) =>
      jsonSuccess({
        callId: ctx.callId,
        sessionId: ctx.sessionId,
        requester: ctx.requester,
        aborted: ctx.signal.aborted,
      }),
    ),
    fixtureTool('nested_caller', async ({ text }, ctx) =>
      renderResult(
        await ctx.invoke({
          toolId: text === 'missing' ? 'echo_txt' : 'echo_text',
          args: { text },
          callId: `nested-${text}`,
        }),
      ),
    ),
    fixtureTool('progress_tool', ({ count }, ctx) => {
      for (let i = 1; i <= (count ?? 2); i++) ctx.progress({ progress: i, total: count ?? 2, message: `step ${i}` });
      return 'done';
    }),
    fixtureTool('delete_thing', ({ text }) => `deleted ${text}`, {
      annotations: DESTRUCTIVE,
      metadata: { category: 'files', risk: 'HIGH' },
    }),
    defineLegacyTool({
      id: 'legacy_tool',
      description: 'A v1 tool with a hand-written schema.',
      parametersSchema: JSON.stringify({
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
      }),
      run: (args) => `legacy ${String(args.path)}`,
    }),
    defineLegacyTool({
      id: 'legacy_unparseable',
      description: 'A v1 tool whose schema does not parse.',
      parametersSchema: '{ not json',
      run: (args) => `keys: ${Object.keys(args).join(',')}`,
    }),
  );
}

const TOOL_IDS = [
  'echo_text',
  'json_echo',
  'image_tool',
  'thrower',
  'async_thrower',
  'code_thrower',
  'garbage_tool',
  'error_string',
  'plain_string',
  'structured_failure',
  'context_reader',
  'nested_caller',
  'progress_tool',
  'delete_thing',
  'legacy_tool',
  'legacy_unparseable',
];

const ARG_VARIANTS: unknown[] = [
  { text: 'hello' },
  { text: 'hello', count: 3 },
  { text: 'hello', extra: 'tolerated' },
  {},
  { text: 7 },
  { text: 'x', count: 'three' },
  null,
  undefined,
  ['text'],
  'just a string',
  { path: '/tmp/a' },
];

function calls(): ToolCall[] {
  const out: ToolCall[] = [];
  let n = 0;
  for (const toolId of TOOL_IDS) {
    for (const args of ARG_VARIANTS) {
      n++;
      out.push({
        toolId,
        args,
        callId: `call-${n}`,
        ...(n % 3 === 0 ? { sessionId: `session-${n % 2}` } : {}),
        ...(n % 4 === 0 ? { requester: { kind: 'ui', id: 'panel' } } : {}),
      });
    }
  }
  for (const text of Object.keys(GARBAGE).concat(['bare', 'missing', 'with spaces'])) {
    for (const toolId of ['garbage_tool', 'error_string', 'nested_caller'])
      out.push({ toolId, args: { text }, callId: `call-${++n}` });
  }
  for (const toolId of ['echo_txt', 'nonexistent', '', 'ECHO_TEXT', 'legacy', 'delete'])
    out.push({ toolId, args: { text: 'a' }, callId: `call-${++n}` });
  return out;
}

async function runBoth(
  call: ToolCall,
  v2: DefaultToolExecutor,
  v3: ToolPipeline,
): Promise<[ToolResult, ToolResult, ProgressUpdate[], ProgressUpdate[]]> {
  const p2: ProgressUpdate[] = [];
  const p3: ProgressUpdate[] = [];
  const r2 = await v2.execute({ ...call, onProgress: (u) => p2.push(u) });
  const r3 = await v3.execute({ ...call, onProgress: (u) => p3.push(u) });
  return [r2, r3, p2, p3];
}

describe('the pipeline without v3 parts', () => {
  it('gives the same result, progress and usage as DefaultToolExecutor on every call of a varied set', async () => {
    const list = calls();
    expect(list.length).toBeGreaterThanOrEqual(50);
    const registry = buildRegistry();
    const usage2 = new ToolUsageTracker();
    const usage3 = new ToolUsageTracker();
    const v2 = new DefaultToolExecutor(registry, { usage: usage2 });
    const v3 = assemblePipeline(registry, { usage: usage3 });
    const kinds = new Set<string>();
    for (const call of list) {
      const [r2, r3, p2, p3] = await runBoth(call, v2, v3);
      expect(r3, `${call.toolId} ${JSON.stringify(call.args)}`).toEqual(r2);
      expect(renderResult(r3)).toBe(renderResult(r2));
      expect(p3).toEqual(p2);
      kinds.add(r2.ok ? 'ok' : r2.error.code);
    }
    // The set really covers successes and the failure kinds v2 produces.
    expect([...kinds].sort()).toEqual(['EXECUTION_FAILED', 'INVALID_ARGUMENT', 'NOT_FOUND', 'UNSUPPORTED', 'ok']);
    const summary = (u: ToolUsageTracker) =>
      u.all().map((s) => ({
        id: s.toolId,
        count: s.count,
        ok: s.successes,
        failed: s.failures,
        last: s.lastError && [s.lastError.code, s.lastError.message],
      }));
    expect(summary(usage3)).toEqual(summary(usage2));
  });

  it('gives the same result as DefaultToolExecutor for arbitrary arguments and tool names', async () => {
    const registry = buildRegistry();
    const v2 = new DefaultToolExecutor(registry);
    const v3 = assemblePipeline(registry);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...TOOL_IDS), fc.string({ maxLength: 12 })),
        fc.anything(),
        async (toolId, args) => {
          const call = { toolId, args, callId: 'same-id' };
          const [r2, r3] = await runBoth(call, v2, v3);
          expect(r3).toEqual(r2);
        },
      ),
      { numRuns: 300 },
    );
  });
});
