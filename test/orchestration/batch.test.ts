/**
 * Rule (docs/architecture.md#batches): tool_batch_run runs steps strictly in order through the
 * executor and stops at the first error; steps not run say exactly "Not executed: an earlier action
 * in this turn failed."; `{n}` references resolve to earlier results (whole → value, inside text →
 * text, cut to 4 KB); anything refusable (forward/out-of-range refs, > 16 steps, nested batch, bad
 * JSON) is refused before any tool is called; the wall budget aborts the running step; each step
 * is gated on its own, as a direct call would be.
 */
import { describe, expect, it } from 'vitest';
import { NOT_EXECUTED, REFERENCE_LIMIT_BYTES } from '../../tools/orchestration';
import { errorOf, makeKit, structuredOf } from './fixtures';

type Steps = {
  ok: boolean;
  steps: Array<{ index: number; tool: string; status: string; text: string; structured?: unknown }>;
};

describe('tool_batch_run refuses before running anything', () => {
  it('refuses a forward reference with zero tool calls', async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      steps: [
        { tool: 'echo_text', args: { text: 'a' } },
        { tool: 'echo_text', args: { text: 'uses {2}' } },
        { tool: 'echo_text', args: { text: 'c' } },
      ],
    });
    const error = errorOf(result);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['steps[1].args.text']);
    expect(error.message).toContain('has not run yet');
    expect(kit.calls).toHaveLength(0);
  });

  it('refuses a self reference and an out-of-range reference, naming each field', async () => {
    const kit = makeKit();
    const error = errorOf(
      await kit.run('tool_batch_run', {
        steps: [
          { tool: 'record_args', args: { same: '{0}' } },
          { tool: 'record_args', args: { far: { list: ['{7}'] } } },
        ],
      }),
    );
    expect(error.data?.fields).toEqual(['steps[0].args.same', 'steps[1].args.far.list[0]']);
    expect(error.message).toContain('{7} is out of range');
    expect(kit.calls).toHaveLength(0);
  });

  it('refuses more than 16 steps', async () => {
    const kit = makeKit();
    const steps = Array.from({ length: 17 }, () => ({ tool: 'echo_text', args: { text: 'x' } }));
    const error = errorOf(await kit.run('tool_batch_run', { steps }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('at most 16 steps');
    expect(kit.calls).toHaveLength(0);
  });

  it('refuses an empty batch', async () => {
    const kit = makeKit();
    expect(errorOf(await kit.run('tool_batch_run', { steps: [] })).message).toContain('at least one step');
  });

  it('refuses a batch nested in a batch, statically and at run time', async () => {
    const kit = makeKit();
    const inner = { tool: 'tool_batch_run', args: { steps: [{ tool: 'echo_text', args: { text: 'x' } }] } };
    const error = errorOf(
      await kit.run('tool_batch_run', { steps: [{ tool: 'echo_text', args: { text: 'a' } }, inner] }),
    );
    expect(error.data?.fields).toEqual(['steps[1].tool']);
    expect(kit.calls).toHaveLength(0);

    const nested = await kit.run('tool_batch_run', inner.args, { requester: { kind: 'batch', id: 'parent' } });
    expect(errorOf(nested).code).toBe('UNSUPPORTED');
    expect(kit.calls).toHaveLength(0);
  });

  it('refuses steps given as a string that is not JSON', async () => {
    const kit = makeKit();
    const error = errorOf(await kit.run('tool_batch_run', { steps: '[{"tool": "echo_text",' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['steps']);
  });

  it('names the field of a malformed step', async () => {
    const kit = makeKit();
    const error = errorOf(await kit.run('tool_batch_run', { steps: [{ tool: 'echo_text' }, { args: {} }] }));
    expect(error.data?.fields).toEqual(['steps[1].tool']);
  });

  it('refuses a budget above 600 s and both budget forms at once', async () => {
    const kit = makeKit();
    const steps = [{ tool: 'echo_text', args: { text: 'x' } }];
    expect(errorOf(await kit.run('tool_batch_run', { steps, budgetSeconds: 601 })).data?.fields).toEqual([
      'budgetSeconds',
    ]);
    expect(errorOf(await kit.run('tool_batch_run', { steps, budgetMs: 600_001 })).data?.fields).toEqual(['budgetMs']);
    expect(errorOf(await kit.run('tool_batch_run', { steps, budgetMs: 1000, budgetSeconds: 1 })).data?.fields).toEqual([
      'budgetSeconds',
    ]);
    expect(kit.calls).toHaveLength(0);
  });
});

describe('tool_batch_run stops at the first error', () => {
  it('runs steps in order, stops at the failure, and marks the rest with the exact contract text', async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      steps: [
        { tool: 'echo_text', args: { text: 'first' } },
        { tool: 'fail_step', args: {} },
        { tool: 'echo_text', args: { text: 'never' } },
        { tool: 'echo_text', args: { text: 'never either' } },
      ],
    });
    const error = errorOf(result);
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain('Step 1 of 4 (fail_step) failed');
    expect(kit.calls.map((c) => c.tool)).toEqual(['echo_text', 'fail_step']);
    const steps = (error.data as { steps: Steps['steps'] }).steps;
    expect(steps.map((s) => s.status)).toEqual(['ok', 'error', 'not_executed', 'not_executed']);
    expect(steps[2]?.text).toBe('Not executed: an earlier action in this turn failed.');
    expect(steps[3]?.text).toBe(NOT_EXECUTED);
    expect(error.message).toContain('[2] echo_text: Not executed: an earlier action in this turn failed.');
    expect(error.data?.failedStep).toBe(1);
  });

  it('reports an unknown step tool as the failing step', async () => {
    const kit = makeKit();
    const error = errorOf(
      await kit.run('tool_batch_run', {
        steps: [
          { tool: 'echo_txt', args: { text: 'x' } },
          { tool: 'echo_text', args: { text: 'y' } },
        ],
      }),
    );
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('echo_text');
    expect(kit.calls).toHaveLength(0);
  });

  it('reports a step whose arguments are invalid as the failing step', async () => {
    const kit = makeKit();
    const error = errorOf(await kit.run('tool_batch_run', { steps: [{ tool: 'echo_text', args: { text: 5 } }] }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('Step 0 of 1 (echo_text) failed');
  });
});

describe('tool_batch_run gates each step on its own', () => {
  it('asks a person about the step that needs it, never about the batch, and stops where denied', async () => {
    const kit = makeKit();
    kit.family.decide = () => ({ decision: 'deny', reason: 'not this app' });
    const error = errorOf(
      await kit.run('tool_batch_run', {
        steps: [
          { tool: 'echo_text', args: { text: 'first' } },
          { tool: 'app_uninstall', args: { package: 'com.example.notes' } },
          { tool: 'echo_text', args: { text: 'never' } },
        ],
      }),
    );
    expect(kit.approvals.map((r) => [r.toolId, r.args, r.requester.kind])).toEqual([
      ['app_uninstall', { package: 'com.example.notes' }, 'batch'],
    ]);
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain('Step 1 of 3 (app_uninstall) failed');
    expect(kit.calls.map((c) => c.tool)).toEqual(['echo_text']);
  });
});

describe('tool_batch_run wall budget', () => {
  it('aborts the running step through its signal when the budget runs out and does not run the rest', async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      budgetMs: 30,
      steps: [
        { tool: 'echo_text', args: { text: 'quick' } },
        { tool: 'hang_until_aborted', args: {} },
        { tool: 'echo_text', args: { text: 'never' } },
      ],
    });
    const error = errorOf(result);
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('wall budget of 30 ms ran out while step 1 (hang_until_aborted) was running');
    const steps = (error.data as { steps: Steps['steps'] }).steps;
    expect(steps.map((s) => s.status)).toEqual(['ok', 'error', 'not_executed']);
    expect(steps[2]?.text).toBe(NOT_EXECUTED);
    expect(kit.calls.map((c) => c.tool)).toEqual(['echo_text', 'hang_until_aborted']);
    expect(kit.aborted).toHaveLength(1);
  });

  it('aborts the running step when the batch call itself is cancelled', async () => {
    const kit = makeKit();
    const controller = new AbortController();
    const pending = kit.run(
      'tool_batch_run',
      {
        steps: [
          { tool: 'hang_until_aborted', args: {} },
          { tool: 'echo_text', args: { text: 'x' } },
        ],
      },
      { signal: controller.signal },
    );
    await new Promise((r) => setImmediate(r));
    controller.abort();
    const error = errorOf(await pending);
    expect(error.message).toContain('cancelled while step 0 (hang_until_aborted) was running');
    expect(kit.calls.map((c) => c.tool)).toEqual(['hang_until_aborted']);
    expect(kit.aborted).toHaveLength(1);
  });

  it('runs nothing when the call is already cancelled', async () => {
    const kit = makeKit();
    const controller = new AbortController();
    controller.abort();
    const error = errorOf(
      await kit.run(
        'tool_batch_run',
        { steps: [{ tool: 'echo_text', args: { text: 'x' } }] },
        { signal: controller.signal },
      ),
    );
    expect(error.message).toContain('cancelled before step 0 started');
    expect(error.message).toContain(`[0] echo_text: ${NOT_EXECUTED}`);
    expect(kit.calls).toHaveLength(0);
  });
});

describe('tool_batch_run step references', () => {
  it("passes a whole {n} as the step's structured value and {n} inside text as its text", async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      steps: [
        { tool: 'record_args', args: { count: 3, tags: ['a', 'b'] } },
        { tool: 'echo_text', args: { text: 'pkg.name' } },
        { tool: 'record_args', args: { whole: '{0}', text: '{1}', inside: 'package {1} done' } },
      ],
    });
    structuredOf(result);
    expect(kit.calls[2]?.args).toEqual({
      whole: { count: 3, tags: ['a', 'b'] },
      text: 'pkg.name',
      inside: 'package pkg.name done',
    });
  });

  it('keeps a bare scalar text result as text (a version is not a number)', async () => {
    const kit = makeKit();
    await kit.run('tool_batch_run', {
      steps: [
        { tool: 'echo_text', args: { text: '1.10' } },
        { tool: 'record_args', args: { v: '{0}' } },
      ],
    });
    expect(kit.calls[1]?.args).toEqual({ v: '1.10' });
  });

  it('parses a whole reference to a text result that holds a JSON object', async () => {
    const kit = makeKit();
    await kit.run('tool_batch_run', {
      steps: [
        { tool: 'echo_text', args: { text: '{"a": [1, 2]}' } },
        { tool: 'record_args', args: { v: '{0}' } },
      ],
    });
    expect(kit.calls[1]?.args).toEqual({ v: { a: [1, 2] } });
  });

  it('head-truncates a referenced result to 4 KB and marks the cut', async () => {
    const kit = makeKit();
    await kit.run('tool_batch_run', {
      steps: [
        { tool: 'big_text', args: { bytes: 10_000 } },
        { tool: 'record_args', args: { whole: '{0}', inside: '<{0}>' } },
      ],
    });
    const args = kit.calls[1]?.args as { whole: string; inside: string };
    const marker = `…[truncated: kept the first ${REFERENCE_LIMIT_BYTES} of 10000 bytes]`;
    expect(args.whole).toBe(`${'x'.repeat(REFERENCE_LIMIT_BYTES)}${marker}`);
    expect(args.inside).toBe(`<${'x'.repeat(REFERENCE_LIMIT_BYTES)}${marker}>`);
  });

  it('leaves {name} placeholders as literal text in a plain batch', async () => {
    const kit = makeKit();
    await kit.run('tool_batch_run', { steps: [{ tool: 'echo_text', args: { text: 'hello {name}' } }] });
    expect(kit.calls[0]?.args).toEqual({ text: 'hello {name}' });
  });
});

describe('tool_batch_run success', () => {
  it("accepts the steps as a JSON string and returns every step's outcome as text and JSON", async () => {
    const kit = makeKit();
    const steps = JSON.stringify([
      { tool: 'echo_text', args: { text: 'one' } },
      { tool: 'echo_text', args: { text: 'two' } },
    ]);
    const result = await kit.run('tool_batch_run', { steps, budgetSeconds: 5 });
    const structured = structuredOf(result) as Steps;
    expect(structured.ok).toBe(true);
    expect(structured.steps.map((s) => [s.tool, s.status, s.text])).toEqual([
      ['echo_text', 'ok', 'one'],
      ['echo_text', 'ok', 'two'],
    ]);
    expect(result.ok && result.content.map((c) => (c.type === 'text' ? c.text : c.type))).toEqual([
      '[0] echo_text: ok',
      'one',
      '[1] echo_text: ok',
      'two',
    ]);
  });

  it('sends each step as a nested call that names the batch, the step and who asked for the batch', async () => {
    const kit = makeKit();
    await kit.run('tool_batch_run', { steps: [{ tool: 'echo_text', args: { text: 'x' } }] }, { callId: 'batch-1' });
    expect(kit.calls[0]?.requester).toEqual({
      kind: 'batch',
      id: 'batch-1',
      label: 'tool_batch_run',
      step: 1,
      via: { kind: 'internal' },
    });
  });

  it('reports progress per step', async () => {
    const kit = makeKit();
    const progress: string[] = [];
    await kit.run(
      'tool_batch_run',
      {
        steps: [
          { tool: 'echo_text', args: { text: 'a' } },
          { tool: 'echo_text', args: { text: 'b' } },
        ],
      },
      { onProgress: (p) => progress.push(p.message ?? '') },
    );
    expect(progress).toEqual(['step 1/2: echo_text', 'step 2/2: echo_text']);
  });

  it('publishes MEDIUM risk and orchestration metadata', () => {
    const kit = makeKit();
    const tool = kit.registry.get('tool_batch_run');
    expect(tool?.metadata.risk).toBe('MEDIUM');
    expect(tool?.metadata.category).toBe('orchestration');
    expect(tool?.metadata.annotations.readOnlyHint).toBe(false);
  });
});
