/**
 * Driving the real `adb` binary: run a command, start the server, read and await a serial's state.
 * Always async child processes: a synchronous spawn would block this process's event loop, and
 * with the device in-process adb would wait on a device that cannot answer — a deadlock.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sleep } from './faults';

const execFileAsync = promisify(execFile);

export const DEFAULT_ADB = 'adb';

export async function runAdb(args: string[], adbPath = DEFAULT_ADB, timeoutMs = 30_000): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync(adbPath, args, { timeout: timeoutMs });
    return `${stdout}${stderr}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `'${adbPath}' was not found: install Android platform-tools (Debian package "adb") or pass the adb path`,
      );
    }
    throw err;
  }
}

/** Starts the adb server if it is not running (`adb start-server` is a no-op otherwise). */
export async function startAdbServer(adbPath = DEFAULT_ADB): Promise<void> {
  await runAdb(['start-server'], adbPath);
}

/** The state `adb devices` shows for a serial (`device`, `offline`, `unauthorized`…), or null when absent. */
export async function adbState(serial: string, adbPath = DEFAULT_ADB): Promise<string | null> {
  const out = await runAdb(['devices'], adbPath);
  for (const line of out.split('\n')) {
    const [s, state] = line.trim().split(/\s+/);
    if (s === serial) return state ?? null;
  }
  return null;
}

/**
 * Polls `adb devices` until the serial shows `state` (null: until adb no longer lists it); throws
 * with the last state seen after `timeoutMs`.
 */
export async function waitForAdbState(
  serial: string,
  state: string | null,
  adbPath = DEFAULT_ADB,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | null = null;
  while (Date.now() < deadline) {
    last = await adbState(serial, adbPath);
    if (last === state) return;
    await sleep(100);
  }
  const wanted = state === null ? 'absent' : `'${state}'`;
  throw new Error(`${serial} did not become ${wanted} in adb within ${timeoutMs} ms (last state: ${last ?? 'absent'})`);
}
