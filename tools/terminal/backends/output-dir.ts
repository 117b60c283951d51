/**
 * A terminal's folder for the FIFOs of its pipe-mode runs (output-pipe.ts): private to this user
 * (mode 0700, made by mkdtemp in the system's temporary folder), one per terminal, removed when the
 * terminal ends. Never inside the data dir: the sandbox is shown this folder (read-only, at
 * SANDBOX_OUTPUT_DIR) and must see nothing of the data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a sandbox's shell finds its terminal's output folder. */
export const SANDBOX_OUTPUT_DIR = '/run/toolgate-output';

export interface OutputDir {
  /** The folder on this machine, where the host makes and reads the FIFOs. */
  host: string;
  /** The same folder as the terminal's shell sees it. */
  shell: string;
}

export function makeOutputDir(): string {
  return mkdtempSync(join(tmpdir(), 'toolgate-run-'));
}

export function removeOutputDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
