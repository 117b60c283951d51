/**
 * Rule guarded: the browser is found where it is usually installed (a configured path wins), and
 * when none is found the error tells the person how to install one or where to set the path.
 */
import { describe, expect, it } from 'vitest';
import { candidatePaths, resolveExecutable } from '../../tools/browser/executable';
import { isToolCallError } from '../../tools/core/result';

function failureOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isToolCallError(e)) return { code: e.toolErrorCode, message: e.message };
    throw e;
  }
  throw new Error('expected a ToolCallError');
}

describe('resolveExecutable', () => {
  it('refuses a configured path that does not exist, naming it and how to install Chromium', () => {
    const err = failureOf(() =>
      resolveExecutable('/opt/nowhere/chrome', { platform: 'linux', exists: () => false, env: {} }),
    );
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toContain('/opt/nowhere/chrome');
    expect(err.message).toContain('apt-get install chromium');
  });

  it('says how to install a browser or set the path when nothing is installed', () => {
    const err = failureOf(() => resolveExecutable(undefined, { platform: 'linux', exists: () => false, env: {} }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toMatch(/apt-get install chromium/);
    expect(err.message).toMatch(/browser\.executablePath/);
  });

  it('uses a configured path that exists, without probing anything else', () => {
    const probed: string[] = [];
    const path = resolveExecutable('/custom/chrome', {
      platform: 'linux',
      env: {},
      exists: (p) => (probed.push(p), true),
    });
    expect(path).toBe('/custom/chrome');
    expect(probed).toEqual(['/custom/chrome']);
  });

  it('prefers Debian chromium, then Chrome, then Edge on Linux', () => {
    const installed = new Set(['/usr/bin/google-chrome', '/usr/bin/microsoft-edge']);
    expect(resolveExecutable(undefined, { platform: 'linux', env: {}, exists: (p) => installed.has(p) })).toBe(
      '/usr/bin/google-chrome',
    );
    expect(candidatePaths('linux', {})[0]).toBe('/usr/bin/chromium');
  });

  it('finds Chrome in /Applications on macOS and Edge under Program Files on Windows', () => {
    expect(
      resolveExecutable(undefined, { platform: 'darwin', env: {}, exists: (p) => p.includes('Google Chrome.app') }),
    ).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(
      resolveExecutable(undefined, {
        platform: 'win32',
        env: { PROGRAMFILES: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)' },
        exists: (p) => p === edge,
      }),
    ).toBe(edge);
  });
});
