/**
 * Rule: a failure explains itself without repeating its arguments. Every failed attempt's span,
 * and the span of a call refused before it ran, keeps the error's own words as `errorText`, with
 * each run of argument text replaced by a placeholder naming the field; its slug never spells an
 * argument either. A success keeps no error text.
 */
import { describe, expect, it } from 'vitest';
import { ToolCallError, failure } from '../../tools/core';
import { createPipeline } from '../../tools/core/pipeline';
import { errorSlug } from '../../tools/core/trace';
import { fixtureTool, registryOf } from './fixtures';

function pipelineWith(run: Parameters<typeof fixtureTool>[1]) {
  return createPipeline(registryOf(fixtureTool('echoing', run)), { approval: false, environment: false });
}

describe('the error text of a span', () => {
  it("keeps a failed attempt's message with the argument replaced by its field", async () => {
    const p = pipelineWith(({ text }) => {
      throw new ToolCallError('EXECUTION_FAILED', `could not open '${text}': permission denied`);
    });
    await p.executor.execute({ toolId: 'echoing', args: { text: '/home/me/hunter2-secret.txt' } });
    const [span] = p.trace.spans();
    expect(span).toMatchObject({
      outcome: 'error',
      errorCode: 'EXECUTION_FAILED',
      errorText: "could not open '‹text›': permission denied",
      errorSlug: 'could-not-open',
    });
    expect(JSON.stringify(span)).not.toContain('hunter2');
  });

  it('keeps the text of a call refused before it ran (here by schema validation)', async () => {
    const p = pipelineWith(() => 'unused');
    await p.executor.execute({ toolId: 'echoing', args: { text: 42, sneaky_hunter2_key: 'x' } });
    const [span] = p.trace.spans();
    expect(span).toMatchObject({ attempt: 0, errorCode: 'INVALID_ARGUMENT' });
    expect(span?.errorText).toMatch(/^Invalid arguments: /);
    expect(JSON.stringify(span)).not.toContain('sneaky_hunter2');
  });

  it('keeps no error text for a success', async () => {
    const p = pipelineWith(() => 'fine');
    await p.executor.execute({ toolId: 'echoing', args: { text: 'whatever it is' } });
    expect(p.trace.spans()[0]).toMatchObject({ outcome: 'success', errorText: undefined, errorSlug: undefined });
  });

  it('gives the breaker the same cleaned slug', async () => {
    const p = pipelineWith(({ text }) => failure('EXECUTION_FAILED', `${text} exploded`));
    for (let i = 0; i < 5; i++) await p.executor.execute({ toolId: 'echoing', args: { text: 'reactor-hunter2' } });
    expect(p.breakers?.state('echoing').lastError).toMatchObject({ code: 'EXECUTION_FAILED', slug: 'exploded' });
  });
});

describe('errorSlug', () => {
  it('refuses a slug a tool declared when it spells a run of an argument, and keeps it otherwise', () => {
    const error = failure('EXECUTION_FAILED', 'x', { data: { slug: 'hunter2-secret' } }).error;
    expect(errorSlug(error, { token: 'hunter2 secret' })).toBe('x');
    expect(errorSlug(error, { token: 'nothing alike' })).toBe('hunter2-secret');
  });
});
