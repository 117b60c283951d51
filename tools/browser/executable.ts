/**
 * Finds an installed Chrome, Chromium or Edge. A configured path wins; otherwise the standard
 * install locations of the platform are probed in order. When nothing is found the error says how
 * to install one or where to set the path, since the model cannot fix this and the person must.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ToolCallError } from '../core/result';

export interface ExecutableProbe {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  exists?: (path: string) => boolean;
}

/** The places a Chromium-family browser is installed by default, best first. */
export function candidatePaths(platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
    const roots = ['/Applications', ...(env.HOME ? [join(env.HOME, 'Applications')] : [])];
    return roots.flatMap((root) => apps.map((app) => `${root}/${app}`));
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => !!r);
    const apps = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
    ];
    return apps.flatMap((app) => roots.map((root) => `${root}\\${app}`));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/snap/bin/chromium',
  ];
}

export function installAdvice(platform: NodeJS.Platform): string {
  if (platform === 'darwin')
    return (
      'Install Google Chrome (https://www.google.com/chrome/) or set the browser path in Settings ' +
      '(browser.executablePath).'
    );
  if (platform === 'win32')
    return 'Install Google Chrome or Microsoft Edge, or set the browser path in Settings (browser.executablePath).';
  return (
    'Install one (Debian/Ubuntu: `sudo apt-get install chromium`) or set the browser path in Settings ' +
    '(browser.executablePath).'
  );
}

/** The browser to launch, or a ToolCallError (UNSUPPORTED) that tells the person how to get one. */
export function resolveExecutable(configured: string | undefined, probe: ExecutableProbe = {}): string {
  const platform = probe.platform ?? process.platform;
  const exists = probe.exists ?? existsSync;
  const env = probe.env ?? process.env;
  if (configured) {
    if (exists(configured)) return configured;
    throw new ToolCallError(
      'UNSUPPORTED',
      `The configured browser path '${configured}' does not exist. ${installAdvice(platform)}`,
      {
        hint: 'The browser is not installed where the settings point; tell the user, do not retry.',
        data: { configured },
      },
    );
  }
  const candidates = candidatePaths(platform, env);
  const found = candidates.find((p) => exists(p));
  if (found) return found;
  throw new ToolCallError(
    'UNSUPPORTED',
    `No Chrome, Chromium or Edge browser was found (looked in ${candidates.join(', ')}). ${installAdvice(platform)}`,
    {
      hint: 'The browser tools need an installed browser; tell the user, do not retry.',
      data: { looked: candidates },
    },
  );
}
