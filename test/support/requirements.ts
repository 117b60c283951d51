/**
 * The real parts the tests drive, checked before a test uses one, so a machine without it fails
 * with what to install instead of a spawn error deep in a stack trace.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';

export function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(`These tests need Chromium at ${CHROMIUM}: sudo apt-get install -y chromium`);
}

export function requireAdb(): void {
  const onPath = (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, 'adb')));
  if (!onPath)
    throw new Error('These tests need the adb program on PATH (Android platform-tools): sudo apt-get install -y adb');
}
