/**
 * Removes a browser profile directory a test made. Chromium's helper processes (crashpad, the
 * zygote) can keep writing into the profile for a moment after the browser process itself has
 * exited, so a single recursive remove can meet ENOTEMPTY; this retries until the tree stays gone.
 */
import { existsSync, rmSync } from 'node:fs';

export async function removeDir(dir: string | undefined, withinMs = 15_000): Promise<void> {
  if (!dir) return;
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      rmSync(dir, { recursive: true, force: true });
      if (!existsSync(dir)) return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EBUSY' && code !== 'EPERM') throw error;
    }
    if (Date.now() > deadline)
      throw new Error(`could not remove ${dir}: something kept writing into it for ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
