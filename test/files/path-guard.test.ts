// Rule guarded: every model-supplied path is confined to the workspace root
// (docs/architecture.md#tool-families, files: "no path may leave it"); a refusal is
// PERMISSION_DENIED naming the rule that was broken.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isToolCallError } from '../../tools/core/result';
import { resolveInsideRoot, workspaceRelative } from '../../tools/files/path-guard';
import { type Workspace, makeWorkspace } from './workspace-fixture';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

async function refusal(userPath: string): Promise<{ code: string; rule: unknown; message: string }> {
  try {
    const resolved = await resolveInsideRoot(ws.root, userPath);
    throw new Error(`expected a refusal for ${JSON.stringify(userPath)}, got ${resolved}`);
  } catch (e) {
    if (!isToolCallError(e)) throw e;
    return { code: e.toolErrorCode, rule: e.data?.rule, message: e.message };
  }
}

describe('resolveInsideRoot refuses', () => {
  it.each([
    ['../outside/secret.txt', 'parent-traversal'],
    ['foo/../../x', 'parent-traversal'],
    ['src/nested/../../../outside/secret.txt', 'parent-traversal'],
    ['..', 'parent-traversal'],
    ['/etc/passwd', 'outside-root'],
    ['hello.txt\0.png', 'nul-byte'],
    ['C:\\Windows\\system.ini', 'windows-path'],
    ['c:/Windows/system.ini', 'windows-path'],
    ['..\\outside\\secret.txt', 'windows-path'],
    ['\\\\server\\share\\file', 'windows-path'],
    ['link-out.txt', 'symlink-escape'],
    ['relative-link-out.txt', 'symlink-escape'],
    ['link-out-dir', 'symlink-escape'],
    ['link-out-dir/inner.txt', 'symlink-escape'],
    ['link-out-dir/not-yet/created.txt', 'symlink-escape'],
    ['dangling', 'dangling-symlink'],
  ])('%j with PERMISSION_DENIED rule %s', async (userPath, rule) => {
    const r = await refusal(userPath);
    expect(r.code).toBe('PERMISSION_DENIED');
    expect(r.rule).toBe(rule);
    expect(r.message).toMatch(/refused/);
  });

  it('absolute paths into a sibling folder whose name starts with the root name', async () => {
    const r = await refusal(join(ws.base, 'root-evil', 'x.txt'));
    expect(r.rule).toBe('outside-root');
  });

  it('absolute paths outside the root, even when they exist', async () => {
    expect((await refusal(join(ws.outside, 'secret.txt'))).rule).toBe('outside-root');
  });
});

describe('resolveInsideRoot accepts', () => {
  it('relative paths inside the root, existing or not', async () => {
    expect(await resolveInsideRoot(ws.root, 'src/app.ts')).toBe(join(ws.root, 'src', 'app.ts'));
    expect(await resolveInsideRoot(ws.root, 'new/dir/file.txt')).toBe(join(ws.root, 'new', 'dir', 'file.txt'));
    expect(await resolveInsideRoot(ws.root, 'src/../hello.txt')).toBe(join(ws.root, 'hello.txt'));
  });

  it('absolute paths inside the root, and the root itself', async () => {
    expect(await resolveInsideRoot(ws.root, join(ws.root, 'hello.txt'))).toBe(join(ws.root, 'hello.txt'));
    expect(await resolveInsideRoot(ws.root, '.')).toBe(ws.root);
    expect(await resolveInsideRoot(ws.root, '')).toBe(ws.root);
  });

  it('encoded-looking names as literal names inside the root', async () => {
    expect(await resolveInsideRoot(ws.root, '%2e%2e/outside/secret.txt')).toBe(
      join(ws.root, '%2e%2e', 'outside', 'secret.txt'),
    );
    expect(await resolveInsideRoot(ws.root, '..%2foutside')).toBe(join(ws.root, '..%2foutside'));
    expect(await resolveInsideRoot(ws.root, '\uFF0E\uFF0E/x')).toBe(join(ws.root, '\uFF0E\uFF0E', 'x'));
  });

  it('a symlink that stays inside, keeping the link as the last component', async () => {
    expect(await resolveInsideRoot(ws.root, 'link-in.txt')).toBe(join(ws.root, 'link-in.txt'));
  });

  it('a root given through a symlink, with paths written either way', async () => {
    const alias = join(ws.base, 'alias');
    symlinkSync(ws.root, alias);
    expect(await resolveInsideRoot(alias, 'hello.txt')).toBe(join(ws.root, 'hello.txt'));
    expect(await resolveInsideRoot(alias, join(alias, 'src', 'app.ts'))).toBe(join(ws.root, 'src', 'app.ts'));
    expect(await workspaceRelative(alias, join(ws.root, 'src', 'app.ts'))).toBe('src/app.ts');
  });

  it('a symlinked directory that points to another place inside the root', async () => {
    mkdirSync(join(ws.root, 'real'));
    symlinkSync(join(ws.root, 'real'), join(ws.root, 'alias-dir'));
    expect(await resolveInsideRoot(ws.root, 'alias-dir/file.txt')).toBe(join(ws.root, 'real', 'file.txt'));
  });
});

describe('a missing workspace root', () => {
  it('is an EXECUTION_FAILED that blames the host, not the model', async () => {
    await expect(resolveInsideRoot(join(ws.base, 'nope'), 'x')).rejects.toMatchObject({
      toolErrorCode: 'EXECUTION_FAILED',
    });
  });
});
