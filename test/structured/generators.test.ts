// Rule guarded: string_distance measures edits exactly; random_generate is uniform and, given a
// seed, reproducible; uuid_generate gives valid v4/v7 UUIDs and the RFC's name-based v3/v5 values.
import { describe, expect, it } from 'vitest';
import { structuredTools } from '../../tools/structured';
import { harness } from './harness';

const NOW = Date.UTC(2025, 0, 2, 3, 4, 5);
const h = harness(structuredTools({ workspaceRoot: process.cwd(), now: () => NOW }));
const UUID = (v: number) => new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-${v}[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`);

describe('string_distance', () => {
  it('refuses giving both or neither of b and candidates', async () => {
    await h.fails('string_distance', { a: 'x' }, 'INVALID_ARGUMENT');
    await h.fails('string_distance', { a: 'x', b: 'y', candidates: ['z'] }, 'INVALID_ARGUMENT');
  });
  it('gives the Levenshtein distance and a normalised similarity', async () => {
    expect(await h.ok('string_distance', { a: 'kitten', b: 'sitting' })).toMatchObject({
      distance: 3,
      similarity: 0.571429,
    });
    expect(await h.ok('string_distance', { a: '', b: '' })).toMatchObject({ distance: 0, similarity: 1 });
    expect(await h.ok('string_distance', { a: 'ABC', b: 'abc', ignoreCase: true })).toMatchObject({ distance: 0 });
  });
  it('ranks candidates by closeness', async () => {
    const r = await h.ok<{ closest: string; ranked: Array<{ candidate: string }> }>('string_distance', {
      a: 'read_fil',
      candidates: ['write_file', 'read_file', 'list_files'],
      top: 2,
    });
    expect(r.closest).toBe('read_file');
    expect(r.ranked.map((x) => x.candidate)).toEqual(['read_file', 'write_file']);
  });
});

describe('random_generate', () => {
  it('refuses impossible requests', async () => {
    await h.fails('random_generate', { kind: 'integer', min: 5, max: 1 }, 'INVALID_ARGUMENT');
    await h.fails('random_generate', { kind: 'integer', min: 1, max: 3, count: 4, unique: true }, 'INVALID_ARGUMENT');
    await h.fails('random_generate', { kind: 'choice' }, 'INVALID_ARGUMENT');
    await h.fails('random_generate', { kind: 'float', min: 1, max: 1 }, 'INVALID_ARGUMENT');
    await h.fails('random_generate', { kind: 'integer', min: 0.5, max: 2 }, 'INVALID_ARGUMENT');
    await h.fails('random_generate', { kind: 'dice' }, 'INVALID_ARGUMENT');
    await h.fails('random_generate', { kind: 'integer', count: 1001 }, 'INVALID_ARGUMENT');
  });
  it('is reproducible with a seed and differs between seeds', async () => {
    const args = { kind: 'integer', count: 20, min: 1, max: 1_000_000, seed: 'test-seed' };
    const a = await h.ok<{ values: number[] }>('random_generate', args);
    const b = await h.ok<{ values: number[] }>('random_generate', args);
    const c = await h.ok<{ values: number[] }>('random_generate', { ...args, seed: 'other' });
    expect(a.values).toEqual(b.values);
    expect(a.values).not.toEqual(c.values);
  });
  it('keeps integers in range and covers it (seeded, 6000 dice rolls)', async () => {
    const r = await h.ok<{ values: number[] }>('random_generate', {
      kind: 'integer',
      count: 1000,
      min: 1,
      max: 6,
      seed: 1,
    });
    const more = await h.ok<{ values: number[] }>('random_generate', {
      kind: 'integer',
      count: 1000,
      min: 1,
      max: 6,
      seed: 2,
    });
    const all = [...r.values, ...more.values];
    expect(all.every((v) => Number.isInteger(v) && v >= 1 && v <= 6)).toBe(true);
    for (let face = 1; face <= 6; face++) {
      const share = all.filter((v) => v === face).length / all.length;
      expect(share).toBeGreaterThan(0.12);
      expect(share).toBeLessThan(0.22);
    }
  });
  it('generates unique integers, floats in range, strings from a charset, choices and shuffles', async () => {
    const u = await h.ok<{ values: number[] }>('random_generate', {
      kind: 'integer',
      min: 1,
      max: 10,
      count: 10,
      unique: true,
    });
    expect([...u.values].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const f = await h.ok<{ values: number[] }>('random_generate', { kind: 'float', min: 2, max: 3, count: 50 });
    expect(f.values.every((v) => v >= 2 && v < 3)).toBe(true);
    const s = await h.ok<{ values: string[] }>('random_generate', {
      kind: 'string',
      length: 32,
      charset: 'hex',
      count: 3,
    });
    expect(s.values.every((v) => /^[0-9a-f]{32}$/.test(v))).toBe(true);
    const c = await h.ok<{ values: string[] }>('random_generate', {
      kind: 'choice',
      choices: ['a', 'b', 'c'],
      count: 3,
      unique: true,
    });
    expect([...c.values].sort()).toEqual(['a', 'b', 'c']);
    const sh = await h.ok<{ values: number[] }>('random_generate', { kind: 'shuffle', choices: [1, 2, 3, 4, 5] });
    expect([...sh.values].sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('uuid_generate', () => {
  it('refuses name-based versions without a namespace or name, and unknown namespaces', async () => {
    await h.fails('uuid_generate', { version: 5, name: 'x' }, 'INVALID_ARGUMENT');
    await h.fails('uuid_generate', { version: 5, namespace: 'dns' }, 'INVALID_ARGUMENT');
    await h.fails('uuid_generate', { version: 3, namespace: 'galaxy', name: 'x' }, 'INVALID_ARGUMENT');
    await h.fails('uuid_generate', { version: 6 }, 'INVALID_ARGUMENT');
  });
  it('gives the RFC name-based UUIDs (same values as Python uuid3/uuid5)', async () => {
    expect(await h.ok('uuid_generate', { version: 5, namespace: 'dns', name: 'python.org' })).toMatchObject({
      uuids: ['886313e1-3b8a-5372-9b90-0c9aee199e5d'],
    });
    expect(await h.ok('uuid_generate', { version: 3, namespace: 'dns', name: 'python.org' })).toMatchObject({
      uuids: ['6fa459ea-ee8a-3ca4-894e-db77e160355e'],
    });
    expect(
      await h.ok('uuid_generate', {
        version: 5,
        namespace: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
        name: 'python.org',
        uppercase: true,
      }),
    ).toMatchObject({
      uuids: ['886313E1-3B8A-5372-9B90-0C9AEE199E5D'],
    });
  });
  it('gives distinct random v4 UUIDs', async () => {
    const r = await h.ok<{ uuids: string[] }>('uuid_generate', { count: 50 });
    expect(new Set(r.uuids).size).toBe(50);
    expect(r.uuids.every((u) => UUID(4).test(u))).toBe(true);
  });
  it('gives v7 UUIDs stamped with the injected clock', async () => {
    const r = await h.ok<{ uuids: string[] }>('uuid_generate', { version: 7, count: 2 });
    for (const u of r.uuids) {
      expect(u).toMatch(UUID(7));
      expect(parseInt(u.replace(/-/g, '').slice(0, 12), 16)).toBe(NOW);
    }
  });
});
