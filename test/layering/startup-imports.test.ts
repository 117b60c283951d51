/**
 * The host starts without its heaviest libraries: playwright-core (~32 MB of heap) loads with the
 * first browser session and mathjs (~31 MB) with the first calculation or unit conversion. A host
 * that carries them pays for them on every full garbage collection, and a screenshot's 10 MB frame
 * brings one on.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagesLoadedBy } from '../../scripts/lib/startup-imports';

const ROOT = join(__dirname, '..', '..');
const loaded = packagesLoadedBy(join(ROOT, 'tools', 'host', 'host.ts'));
const chain = (pkg: string) => (loaded.get(pkg) ?? []).map((f) => relative(ROOT, f)).join(' → ');

describe("the host's start", () => {
  it('loads the libraries every call needs (the walk follows the host through its files)', () => {
    expect([...loaded.keys()]).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/sdk', '@devicefarmer/adbkit', 'zod', 'node:sqlite']),
    );
  });

  it.each(['playwright-core', 'mathjs'])('does not load %s until a tool uses it', (pkg) => {
    expect(chain(pkg), `imported at start through ${chain(pkg)}`).toBe('');
  });
});
