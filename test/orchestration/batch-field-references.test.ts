/**
 * Rule (docs/architecture.md#batches): a step's arguments pick fields of an earlier result with
 * `{n.path}` (`{0.data.items[2].id}`, `{1[0]}`, `{0["odd key"]}`): as the whole value it keeps the
 * field's type, inside a text it is the field as text; a field the result lacks stops the batch at
 * that step without calling its tool, saying which fields there are; a path that does not parse is
 * refused before anything runs. tool_batch_run's description documents it, and a failed batch
 * says "Hint:" once.
 */
import { describe, expect, it } from 'vitest';
import { renderResult } from '../../tools/core/result';
import { errorOf, makeKit } from './fixtures';

const items = { data: { items: [{ id: 7 }, { id: 8 }, { id: 9, name: 'third' }], 'odd key': true } };

describe('batch references that pick a field', () => {
  it('pass the field itself as a whole value, keeping its type', async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      steps: [
        { tool: 'record_args', args: items },
        {
          tool: 'record_args',
          args: {
            id: '{0.data.items[2].id}',
            item: '{0.data.items[1]}',
            odd: '{0.data["odd key"]}',
            leading: '{0["data"].items[0].id}',
          },
        },
      ],
    });
    expect(result.ok).toBe(true);
    expect(kit.calls[1]?.args).toEqual({ id: 9, item: { id: 8 }, odd: true, leading: 7 });
  });

  it('insert the field as text inside a string: strings as they are, other values as JSON', async () => {
    const kit = makeKit();
    await kit.run('tool_batch_run', {
      steps: [
        { tool: 'record_args', args: items },
        {
          tool: 'echo_text',
          args: { text: 'open {0.data.items[2].name} (#{0.data.items[2].id}) of {0.data.items[0]}' },
        },
      ],
    });
    expect(kit.calls[1]?.args).toEqual({ text: 'open third (#9) of {"id":7}' });
  });

  it('stop the batch at a step whose field the result lacks, naming the fields there are, not calling it', async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      steps: [
        { tool: 'record_args', args: items },
        { tool: 'echo_text', args: { text: '{0.data.items[5].id}' } },
        { tool: 'echo_text', args: { text: 'never' } },
      ],
    });
    const error = errorOf(result);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(
      'Step 1 (echo_text) was not run: {0.data.items[5].id}: the result of step 0 has no data.items[5]; data.items ' +
        'is a list of 3 items (indexes 0 to 2)',
    );
    expect(kit.calls.map((c) => c.tool)).toEqual(['record_args']);

    const missingKey = errorOf(
      await kit.run('tool_batch_run', {
        steps: [
          { tool: 'record_args', args: items },
          { tool: 'echo_text', args: { text: '{0.dat}' } },
        ],
      }),
    );
    expect(missingKey.message).toContain('the result of step 0 has no dat; the result has the fields data');
  });

  it('refuse a path that does not parse before any step runs', async () => {
    const kit = makeKit();
    const error = errorOf(
      await kit.run('tool_batch_run', {
        steps: [
          { tool: 'record_args', args: items },
          { tool: 'echo_text', args: { text: '{0.data[x]}' } },
        ],
      }),
    );
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['steps[1].args.text']);
    expect(kit.calls).toHaveLength(0);
  });

  it('are documented in the description the model reads', () => {
    const kit = makeKit();
    const batch = kit.registry.get('tool_batch_run')!;
    expect(batch.description).toContain('{0.data.items[2].id}');
    // Said once, where the model reads it: not again in the schema.
    expect(JSON.stringify(batch.inputSchema)).not.toContain('{0.data');
  });
});

describe('a failed batch', () => {
  it("says Hint: once, the failed step's own hint", async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      steps: [
        { tool: 'echo_text', args: { text: 'a' } },
        { tool: 'fail_step', args: {} },
        { tool: 'echo_text', args: { text: 'b' } },
      ],
    });
    const text = renderResult(result);
    expect(text.match(/Hint:/g)).toHaveLength(1);
    expect(text).toContain('[1] fail_step: Error: PERMISSION_DENIED: The device refused.');
    expect(text.trimEnd().endsWith(`Hint: ${errorOf(result).hint}`)).toBe(true);
  });
});
