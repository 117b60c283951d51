/**
 * Rule (docs/architecture.md#tool-families): version_compare orders SemVer versions (compare two,
 * sort a list, test a range) with the semver package; a string that is not SemVer is an
 * INVALID_ARGUMENT naming the field, with a hint about coerce.
 */
import { describe, expect, it } from 'vitest';
import { errorOf, makeKit, structuredOf } from './fixtures';

const run = (args: object) => makeKit().run('version_compare', args);

describe('version_compare refuses', () => {
  it('refuses a loose version and suggests coerce with what it would read', async () => {
    const error = errorOf(await run({ operation: 'compare', a: '1.2', b: '1.10.0' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['a']);
    expect(error.hint).toBe('Pass coerce: true to read it as 1.2.0, or give a full version like 1.2.0.');
  });

  it('refuses text with no version in it even with coerce', async () => {
    const error = errorOf(await run({ operation: 'sort', versions: ['1.0.0', 'latest'], coerce: true }));
    expect(error.data?.fields).toEqual(['versions[1]']);
    expect(error.message).toContain('not a version, even loosely');
  });

  it('refuses an invalid range and a missing operand', async () => {
    expect(errorOf(await run({ operation: 'satisfies', version: '1.0.0', range: 'banana' })).data?.fields).toEqual([
      'range',
    ]);
    expect(errorOf(await run({ operation: 'compare', a: '1.0.0' })).data?.fields).toEqual(['b']);
    expect(errorOf(await run({ operation: 'satisfies', range: '^1' })).message).toContain(
      'needs "version" or "versions"',
    );
    expect(errorOf(await run({ operation: 'explode' })).data?.fields).toEqual(['operation']);
  });
});

describe('version_compare orders', () => {
  it('compares numerically, not as text, and ranks prereleases below releases', async () => {
    expect(structuredOf(await run({ operation: 'compare', a: '1.10.0', b: '1.9.0' }))).toMatchObject({
      result: 1,
      relation: '>',
      text: '1.10.0 > 1.9.0',
    });
    expect(structuredOf(await run({ operation: 'compare', a: '2.0.0-rc.1', b: '2.0.0' }))).toMatchObject({
      result: -1,
    });
    expect(structuredOf(await run({ operation: 'compare', a: 'v1.2.3', b: '1.2.3' }))).toMatchObject({ result: 0 });
  });

  it('compares loose versions with coerce', async () => {
    expect(structuredOf(await run({ operation: 'compare', a: '1.2', b: 'v1.10', coerce: true }))).toMatchObject({
      a: '1.2.0',
      b: '1.10.0',
      result: -1,
    });
  });

  it('sorts a list ascending or descending, keeping the original strings', async () => {
    const asc = structuredOf(
      await run({ operation: 'sort', versions: ['1.10.0', 'v1.2.0', '1.2.0-beta.2', '1.2.0-beta.10', '0.9.9'] }),
    );
    expect(asc).toMatchObject({ sorted: ['0.9.9', '1.2.0-beta.2', '1.2.0-beta.10', 'v1.2.0', '1.10.0'] });
    const desc = structuredOf(await run({ operation: 'sort', versions: ['1.0.0', '3.0.0', '2.0.0'], order: 'desc' }));
    expect(desc).toMatchObject({ sorted: ['3.0.0', '2.0.0', '1.0.0'] });
  });

  it('tests one version or a list against a range', async () => {
    expect(structuredOf(await run({ operation: 'satisfies', version: '1.4.2', range: '^1.2.0' }))).toMatchObject({
      satisfies: true,
    });
    expect(structuredOf(await run({ operation: 'satisfies', version: '2.0.0', range: '^1.2.0' }))).toMatchObject({
      satisfies: false,
    });
    expect(
      structuredOf(
        await run({ operation: 'satisfies', versions: ['1.1.0', '1.5.0', '1.3.0', '2.0.0'], range: '>=1.2 <2' }),
      ),
    ).toEqual({ range: '>=1.2 <2', matching: ['1.5.0', '1.3.0'], max: '1.5.0' });
  });

  it('lets prereleases match only when asked', async () => {
    expect(structuredOf(await run({ operation: 'satisfies', version: '1.5.0-rc.1', range: '^1.2.0' }))).toMatchObject({
      satisfies: false,
    });
    expect(
      structuredOf(
        await run({ operation: 'satisfies', version: '1.5.0-rc.1', range: '^1.2.0', includePrerelease: true }),
      ),
    ).toMatchObject({ satisfies: true });
  });
});
