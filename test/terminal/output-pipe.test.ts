/**
 * Rule: a pipe-mode run's FIFO is the host's own. It is made fresh in the terminal's private folder
 * and opened for reading before anything may write to it; a name already taken there (a link
 * planted to another file) is refused, never followed, so the host never reads a file in its place.
 * What comes through is handed on as it comes, and the pipe ends when its last writer closes it.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputPipe } from '../../tools/terminal/output-pipe';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-pipe-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an output pipe', () => {
  it('is a FIFO made for the run, read until its last writer closes it, then removed', async () => {
    const pipe = await OutputPipe.open(dir, 'out-1');
    expect(lstatSync(join(dir, 'out-1')).isFIFO()).toBe(true);
    const got: Buffer[] = [];
    pipe.onData((b) => got.push(b));
    spawn('/bin/sh', ['-c', `{ echo one; echo two >&2; } >'${join(dir, 'out-1')}' 2>&1`], { stdio: 'ignore' });
    await pipe.whenEnded();
    expect(Buffer.concat(got).toString()).toBe('one\ntwo\n');
    expect(existsSync(join(dir, 'out-1'))).toBe(false);
  });

  it('refuses a name already taken, a planted link included, and reads nothing of its target', async () => {
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'not for the run');
    symlinkSync(secret, join(dir, 'out-2'));
    await expect(OutputPipe.open(dir, 'out-2')).rejects.toThrow(/File exists/);
    expect(lstatSync(join(dir, 'out-2')).isSymbolicLink()).toBe(true);
  });
});
