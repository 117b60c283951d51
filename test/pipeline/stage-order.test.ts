/**
 * Rule guarded (docs/architecture.md#the-pipeline): the stages run in this order — environment gate
 * → schema validation → the person's deny rules → the tool's precheck → approval gate → rate
 * limiter → circuit breaker → retry → attempt (timeout) → tool — so a call that several stages
 * would refuse reports the first one, a refused call costs nothing later, nobody is asked to
 * approve a call that cannot run, and a call a deny rule covers never has its target read.
 */
import { describe, expect, it } from 'vitest';
import { type ApprovalDecision, ToolCallError } from '../../tools/core';
import { createPipeline } from '../../tools/core/pipeline';
import { DESTRUCTIVE, fixtureTool, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

type Answer = ApprovalDecision['decision'];

/** A pipeline whose person answers `decisions` in turn (the last one from then on). */
function setup(decisions: Answer | Answer[] = 'approve_once', perMinute = 2) {
  const answers = Array.isArray(decisions) ? [...decisions] : [decisions];
  const clock = new ManualClock(0);
  let asked = 0;
  let runs = 0;
  const tool = fixtureTool(
    'delete_file',
    () => {
      runs++;
      throw new Error('disk error');
    },
    { annotations: DESTRUCTIVE, metadata: { category: 'files', risk: 'HIGH' } },
  );
  const pipeline = createPipeline(registryOf(tool), {
    clock,
    random: () => 0,
    approval: {
      decide: async () => {
        asked++;
        const decision = (answers.length > 1 ? answers.shift() : answers[0]) as Answer;
        return decision === 'deny' ? { decision } : { decision };
      },
    },
    rateLimit: { perMinute: { delete_file: perMinute } },
    breaker: { failureThreshold: 2 },
    environment: {
      rules: [
        {
          id: 'disk-mounted',
          appliesTo: () => true,
          check: (read) =>
            read('disk.mounted') === false
              ? { message: 'the disk is not mounted.', hint: 'Mount it first.' }
              : undefined,
        },
      ],
    },
  });
  return { clock, pipeline, asked: () => asked, runs: () => runs };
}

const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error!.code);

describe('stage order', () => {
  it('refuses at the environment gate before asking for approval', async () => {
    const s = setup();
    s.pipeline.telemetry!.set('disk.mounted', false);
    const result = await s.pipeline.executor.execute({ toolId: 'delete_file', args: { wrong: 1 } });
    expect(result).toMatchObject({ ok: false, error: { data: { gate: 'environment' } } });
    expect(s.asked()).toBe(0);
  });

  it('validates the arguments before asking for approval: nobody is asked about a call that cannot run', async () => {
    const s = setup('approve_once');
    const result = await s.pipeline.executor.execute({ toolId: 'delete_file', args: { wrong: 1 } });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: 'Invalid arguments: missing required argument "text".' },
    });
    expect(s.asked()).toBe(0);
    expect(s.runs()).toBe(0);
  });

  it('asks for approval before the rate limiter: a denied call takes no token', async () => {
    const s = setup(['deny', 'deny', 'approve_once'], 1);
    const run = async (text: string) =>
      code(await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text } }));
    expect([await run('a'), await run('b'), await run('c'), await run('d')]).toEqual([
      'PERMISSION_DENIED',
      'PERMISSION_DENIED',
      'EXECUTION_FAILED',
      'RATE_LIMITED',
    ]);
    expect(s.asked()).toBe(4);
  });

  it('reports bad arguments before the rate limit, and bad calls take no token', async () => {
    const s = setup();
    await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'a' } });
    await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'b' } });
    const limitedAndBad = await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 42 } });
    expect(limitedAndBad).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'Invalid arguments: argument "text": expected string, received number.',
      },
    });
    expect(code(await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'c' } }))).toBe(
      'RATE_LIMITED',
    );
  });

  it('rate-limits before consulting the breaker, so a refused call does not use the probe', async () => {
    const s = setup();
    expect(code(await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'a' } }))).toBe(
      'EXECUTION_FAILED',
    );
    expect(code(await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'b' } }))).toBe(
      'EXECUTION_FAILED',
    );
    expect(s.pipeline.breakers!.state('delete_file').state).toBe('open');
    expect(code(await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'c' } }))).toBe(
      'RATE_LIMITED',
    );
    s.clock.advance(30_000);
    expect(code(await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'd' } }))).toBe(
      'EXECUTION_FAILED',
    );
    expect(s.runs()).toBe(3);
  });

  it('refuses at the breaker before running the tool', async () => {
    const s = setup('approve_once', 100);
    await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'a' } });
    await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'b' } });
    s.clock.advance(1_000);
    expect(code(await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'c' } }))).toBe(
      'CIRCUIT_OPEN',
    );
    expect(s.runs()).toBe(2);
  });

  it('traces a refused call as one span with attempt 0, and a run call as one span per attempt', async () => {
    const s = setup();
    s.pipeline.telemetry!.set('disk.mounted', false);
    await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'a' }, callId: 'refused' });
    s.pipeline.telemetry!.set('disk.mounted', true);
    await s.pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'a' }, callId: 'ran' });
    expect(s.pipeline.trace.spans().map((sp) => [sp.callId, sp.attempt, sp.errorSlug])).toEqual([
      ['refused', 0, 'environment-disk-mounted'],
      ['ran', 1, 'disk-error'],
    ]);
  });

  it("refuses by a person's deny rule before the precheck reads the target, and prechecks before asking", async () => {
    let asked = 0;
    const read: string[] = [];
    const tool = {
      ...fixtureTool('delete_file', () => 'deleted', {
        annotations: DESTRUCTIVE,
        metadata: { category: 'files', risk: 'HIGH' },
      }),
      precheck: async (args: unknown) => {
        read.push((args as { text: string }).text);
        throw new ToolCallError('NOT_FOUND', 'there is no such file');
      },
    };
    const pipeline = createPipeline(registryOf(tool), {
      approval: {
        decide: async () => {
          asked++;
          return { decision: 'approve_once' };
        },
        rules: () => [{ id: 7, effect: 'deny', tool: 'delete_file', args: [{ field: 'text', pattern: 'secret*' }] }],
      },
    });
    const ruled = await pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'secret.txt' } });
    expect(ruled).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED', data: { rule: 7 } } });
    expect(read).toEqual([]);
    const missing = await pipeline.executor.execute({ toolId: 'delete_file', args: { text: 'notes.txt' } });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: 'there is no such file' } });
    expect(read).toEqual(['notes.txt']);
    expect(asked).toBe(0);
    expect(pipeline.trace.spans().map((sp) => [sp.attempt, sp.errorCode, sp.decidedBy])).toEqual([
      [0, 'PERMISSION_DENIED', 'rule'],
      [0, 'NOT_FOUND', undefined],
    ]);
  });

  it('answers an unknown tool with suggestions before any stage', async () => {
    const s = setup();
    const result = await s.pipeline.executor.execute({ toolId: 'delete_fil', args: {} });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'NOT_FOUND',
        message: "Unknown tool 'delete_fil'. Did you mean: delete_file?",
        data: { suggestions: ['delete_file'] },
      },
    });
    expect(s.asked()).toBe(0);
    expect(s.pipeline.trace.size).toBe(0);
  });
});
