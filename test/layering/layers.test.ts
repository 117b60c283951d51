/**
 * Rule: tools/ and shared/ never import Electron or the renderer; the renderer imports only
 * shared/ of ours; tools/core never imports a tool family; shared/ imports only zod.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers, importsOf } from '../../scripts/lib/layers';

let root: string;
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

describe('layering check', () => {
  it('passes on the real project tree', () => {
    expect(checkLayers(resolve(__dirname, '../..'))).toEqual([]);
  });

  it('reads static, re-export, dynamic and require imports', () => {
    const src =
      `import a from 'x';\nexport { b } from "./y";\nconst c = await import('z');\nconst d = ` +
      `require('w');\nimport './side';`;
    expect(importsOf(src).sort()).toEqual(['./side', './y', 'w', 'x', 'z']);
  });

  it('refuses electron in tools/', () => {
    const v = checkLayers(tree({ 'tools/host/a.ts': `import { app } from 'electron';` }));
    expect(v.map((x) => x.rule)).toEqual(['tools/ never imports electron']);
  });

  it('refuses tools/ reaching into the renderer or the shell', () => {
    const v = checkLayers(
      tree({ 'tools/x/a.ts': `import '../../renderer/src/App';\nimport '../../electron/main/index';` }),
    );
    expect(v).toHaveLength(2);
  });

  it('refuses tools/core importing a tool family', () => {
    const v = checkLayers(tree({ 'tools/core/a.ts': `import { x } from '../files/read';`, 'tools/files/read.ts': '' }));
    expect(v[0]?.rule).toBe('tools/core never imports a tool family');
  });

  it('lets a family import core', () => {
    expect(checkLayers(tree({ 'tools/files/read.ts': `import { defineTool } from '../core/tool';` }))).toEqual([]);
  });

  it('refuses the renderer importing tools/, Node or Electron, and allows shared/', () => {
    const v = checkLayers(
      tree({
        'renderer/src/a.tsx':
          `import '../../tools/core/tool';\nimport fs from 'node:fs';\nimport ` +
          `'electron';\nimport { z } from '../../shared/contract';\nimport React from 'react';`,
      }),
    );
    expect(v).toHaveLength(3);
  });

  it('refuses shared/ importing anything but zod', () => {
    const v = checkLayers(tree({ 'shared/a.ts': `import { z } from 'zod';\nimport React from 'react';` }));
    expect(v.map((x) => x.specifier)).toEqual(['react']);
  });
});
