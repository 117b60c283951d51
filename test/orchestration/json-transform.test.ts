/**
 * Rule (docs/architecture.md#tool-families): json_transform applies a jq-style pipeline of seven
 * operations (get, where, map, sort_by, group_by, unique, limit) over field paths; any step that
 * cannot apply is an INVALID_ARGUMENT naming `pipeline[i]` and its operation.
 */
import { describe, expect, it } from 'vitest';
import { errorOf, makeKit, structuredOf } from './fixtures';

const apps = {
  device: 'emulator-5554',
  apps: [
    { name: 'Maps', pkg: 'com.maps', size: 40, tags: ['nav'], owner: { team: 'geo' } },
    { name: 'Chat', pkg: 'com.chat', size: 12, tags: ['social'], owner: { team: 'comms' } },
    { name: 'Mail', pkg: 'com.mail', size: 25, tags: ['social', 'work'], owner: { team: 'comms' } },
    { name: 'Notes', pkg: 'com.notes', tags: [], owner: { team: 'tools' } },
  ],
};

async function transform(pipeline: unknown[], data: unknown = apps) {
  return makeKit().run('json_transform', { data, pipeline });
}

describe('json_transform refuses, naming the step', () => {
  it('names the step that got the wrong shape', async () => {
    const error = errorOf(
      await transform([
        { op: 'get', path: 'device' },
        { op: 'sort_by', path: 'size' },
      ]),
    );
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(
      'Transform failed at pipeline[1] (sort_by): expected an array, got a string; use get to reach the array first.',
    );
    expect(error.data).toMatchObject({ fields: ['pipeline[1]'], step: 1, op: 'sort_by' });
  });

  it('says which keys exist when get finds nothing', async () => {
    const error = errorOf(await transform([{ op: 'get', path: 'app' }]));
    expect(error.message).toContain("pipeline[0] (get): no value at 'app' (its keys: device, apps)");
  });

  it('points at a malformed path', async () => {
    const error = errorOf(
      await transform([
        { op: 'get', path: 'apps' },
        { op: 'map', path: 'owner..team' },
      ]),
    );
    expect(error.message).toContain('pipeline[1] (map): empty field name at position 6');
  });

  it('refuses an unknown operation at validation, naming the field', async () => {
    const error = errorOf(await transform([{ op: 'explode' }]));
    expect(error.data?.fields).toEqual(['pipeline[0].op']);
  });

  it('refuses map with both or neither of path and fields, and "in" without an array', async () => {
    expect(errorOf(await transform([{ op: 'get', path: 'apps' }, { op: 'map' }])).message).toContain(
      'give exactly one of path or fields',
    );
    expect(
      errorOf(
        await transform([
          { op: 'get', path: 'apps' },
          { op: 'where', path: 'pkg', cmp: 'in', value: 'com.maps' },
        ]),
      ).message,
    ).toContain('needs value to be an array');
  });

  it('refuses a missing data argument', async () => {
    const error = errorOf(await makeKit().run('json_transform', { pipeline: [] }));
    expect(error.data?.fields).toEqual(['data']);
  });
});

describe('json_transform operations', () => {
  it('get walks a path with indexes and quoted keys', async () => {
    expect(structuredOf(await transform([{ op: 'get', path: '.apps[2].owner.team' }]))).toBe('comms');
    expect(structuredOf(await transform([{ op: 'get', path: '["a.b"][0]' }], { 'a.b': [7] }))).toBe(7);
  });

  it('where filters by comparison, substring/member, set membership and existence', async () => {
    const names = async (where: object) =>
      structuredOf(
        await transform([
          { op: 'get', path: 'apps' },
          { op: 'where', ...where },
          { op: 'map', path: 'name' },
        ]),
      );
    expect(await names({ path: 'size', cmp: 'gt', value: 20 })).toEqual(['Maps', 'Mail']);
    expect(await names({ path: 'owner.team', cmp: 'eq', value: 'comms' })).toEqual(['Chat', 'Mail']);
    expect(await names({ path: 'tags', cmp: 'contains', value: 'social' })).toEqual(['Chat', 'Mail']);
    expect(await names({ path: 'pkg', cmp: 'contains', value: '.ma' })).toEqual(['Maps', 'Mail']);
    expect(await names({ path: 'pkg', cmp: 'in', value: ['com.notes', 'com.chat'] })).toEqual(['Chat', 'Notes']);
    expect(await names({ path: 'size', cmp: 'exists' })).toEqual(['Maps', 'Chat', 'Mail']);
    expect(await names({ path: 'size', cmp: 'lte', value: '25' })).toEqual([]);
  });

  it('map picks fields into objects', async () => {
    const out = structuredOf(
      await transform([
        { op: 'get', path: 'apps' },
        { op: 'limit', count: 2 },
        { op: 'map', fields: ['name', 'owner.team'] },
      ]),
    );
    expect(out).toEqual([
      { name: 'Maps', 'owner.team': 'geo' },
      { name: 'Chat', 'owner.team': 'comms' },
    ]);
  });

  it('sort_by is stable and puts missing values last in both orders', async () => {
    const asc = structuredOf(
      await transform([
        { op: 'get', path: 'apps' },
        { op: 'sort_by', path: 'size' },
        { op: 'map', path: 'name' },
      ]),
    );
    expect(asc).toEqual(['Chat', 'Mail', 'Maps', 'Notes']);
    const desc = structuredOf(
      await transform([
        { op: 'get', path: 'apps' },
        { op: 'sort_by', path: 'size', order: 'desc' },
        { op: 'map', path: 'name' },
      ]),
    );
    expect(desc).toEqual(['Maps', 'Mail', 'Chat', 'Notes']);
    const stable = structuredOf(
      await transform([
        { op: 'get', path: 'apps' },
        { op: 'sort_by', path: 'owner.team' },
        { op: 'map', path: 'name' },
      ]),
    );
    expect(stable).toEqual(['Chat', 'Mail', 'Maps', 'Notes']);
  });

  it('group_by groups in order of first appearance with counts', async () => {
    const out = structuredOf(
      await transform([
        { op: 'get', path: 'apps' },
        { op: 'group_by', path: 'owner.team' },
        { op: 'map', fields: ['key', 'count'] },
      ]),
    );
    expect(out).toEqual([
      { key: 'geo', count: 1 },
      { key: 'comms', count: 2 },
      { key: 'tools', count: 1 },
    ]);
  });

  it('unique keeps the first item per field value, or per whole value regardless of key order', async () => {
    const byTeam = structuredOf(
      await transform([
        { op: 'get', path: 'apps' },
        { op: 'unique', path: 'owner.team' },
        { op: 'map', path: 'name' },
      ]),
    );
    expect(byTeam).toEqual(['Maps', 'Chat', 'Notes']);
    expect(structuredOf(await transform([{ op: 'unique' }], [{ a: 1, b: 2 }, { b: 2, a: 1 }, 3, 3]))).toEqual([
      { a: 1, b: 2 },
      3,
    ]);
  });

  it('limit slices with an offset', async () => {
    expect(structuredOf(await transform([{ op: 'limit', count: 2, offset: 1 }], [1, 2, 3, 4]))).toEqual([2, 3]);
  });

  it('reads data given as JSON text, and returns data untouched for an empty pipeline', async () => {
    expect(structuredOf(await transform([{ op: 'get', path: 'a' }], '{"a": [1]}'))).toEqual([1]);
    expect(structuredOf(await transform([], 'plain text'))).toBe('plain text');
  });

  it("works on a previous step's result inside a batch", async () => {
    const kit = makeKit();
    const result = await kit.run('tool_batch_run', {
      steps: [
        { tool: 'record_args', args: apps },
        {
          tool: 'json_transform',
          args: {
            data: '{0}',
            pipeline: [
              { op: 'get', path: 'apps' },
              { op: 'map', path: 'pkg' },
              { op: 'limit', count: 1 },
            ],
          },
        },
      ],
    });
    const steps = (structuredOf(result) as { steps: Array<{ structured?: unknown }> }).steps;
    expect(steps[1]?.structured).toEqual(['com.maps']);
  });
});
