/**
 * Puts a validated skill on disk atomically: every file is written into a fresh folder under
 * `DATA/skills/.staging`, and only a complete folder is renamed to `DATA/skills/<name>`. A
 * replacement moves the old folder aside first and removes it after the new one is in place, so
 * at every moment the skill's folder is either the old one whole or the new one whole. Files are
 * written owner-only and without execute bits: nothing installed here is run on the host.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SkillFile } from './skill-bundle';
import { isSkillName } from './skill-name';

export const STAGING = '.staging';

export class SkillInstaller {
  constructor(readonly dir: string) {}

  folderOf(name: string): string {
    if (!isSkillName(name)) throw new Error(`not a skill name: ${name}`);
    return join(this.dir, name);
  }

  /** Removes what an interrupted install or removal left in the staging folder. */
  async sweepStaging(): Promise<void> {
    const staging = join(this.dir, STAGING);
    for (const name of await readdir(staging).catch(() => [] as string[]))
      await rm(join(staging, name), { recursive: true, force: true });
  }

  async write(name: string, files: readonly SkillFile[]): Promise<void> {
    const staging = join(this.dir, STAGING);
    await mkdir(staging, { recursive: true, mode: 0o700 });
    const temp = join(staging, `${name}-${randomBytes(6).toString('hex')}`);
    await mkdir(temp, { mode: 0o700 });
    try {
      for (const file of files) {
        const target = join(temp, ...file.path.split('/'));
        await mkdir(dirname(target), { recursive: true, mode: 0o700 });
        await writeFile(target, file.data, { flag: 'wx', mode: 0o600 });
      }
      const final = this.folderOf(name);
      const aside = join(staging, `${name}-old-${randomBytes(6).toString('hex')}`);
      const hadOld = await rename(final, aside).then(
        () => true,
        (e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return false;
          throw e;
        },
      );
      try {
        await rename(temp, final);
      } catch (e) {
        if (hadOld) await rename(aside, final).catch(() => undefined);
        throw e;
      }
      if (hadOld) await rm(aside, { recursive: true, force: true });
    } catch (e) {
      await rm(temp, { recursive: true, force: true });
      throw e;
    }
  }

  async remove(name: string): Promise<void> {
    const staging = join(this.dir, STAGING);
    await mkdir(staging, { recursive: true, mode: 0o700 });
    const aside = join(staging, `${name}-removed-${randomBytes(6).toString('hex')}`);
    await rename(this.folderOf(name), aside).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    await rm(aside, { recursive: true, force: true });
  }
}
