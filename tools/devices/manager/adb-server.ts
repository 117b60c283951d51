/**
 * Making sure an adb server answers before the first device command. A local server that is not
 * running is started with `adb -P PORT start-server`, always as an async child process: a
 * synchronous spawn would block the event loop, and with the virtual device in this process adb
 * would wait on a device that cannot answer (a deadlock). A missing `adb` is one clear error
 * that says how to install it. A remote server (another host) is never started from here.
 */
import { execFile } from 'node:child_process';
import type { Client } from '@devicefarmer/adbkit';
import type { Clock } from '../../core/pipeline/clock';
import { raceDeadline, startDeadline } from './adb-channel';
import { DeviceIoError, classifyAdbError } from './device-io-error';

export interface AdbServerAddress {
  host: string;
  port: number;
  adbPath: string;
}

export const INSTALL_ADB_HINT =
  'Install adb: `sudo apt-get install adb` on Debian/Ubuntu, or Android platform-tools from ' +
  'https://developer.android.com/tools/releases/platform-tools (then make sure `adb` is on PATH).';

export const LOCAL_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * The port the adb CLI itself would use: `ANDROID_ADB_SERVER_PORT` when it holds a port number
 * (adb's own variable), undefined otherwise (then 5037). Following it means Toolgate sees the same
 * phones as `adb devices` in the same environment.
 */
export function adbPortFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.ANDROID_ADB_SERVER_PORT?.trim();
  if (!raw || !/^\d+$/.test(raw)) return undefined;
  const port = Number(raw);
  return port > 0 && port < 65_536 ? port : undefined;
}

function runAdb(adbPath: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(adbPath, args, { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          reject(new DeviceIoError('adb-missing', `The adb program ('${adbPath}') was not found.`));
          return;
        }
        reject(
          new DeviceIoError(
            'server-unreachable',
            `\`${adbPath} ${args.join(' ')}\` failed: ${`${stderr}`.trim() || err.message}`,
          ),
        );
        return;
      }
      resolve(`${stdout}${stderr}`);
    });
  });
}

async function answers(client: Client, clock: Clock, timeoutMs: number): Promise<true | DeviceIoError> {
  const deadline = startDeadline(clock, timeoutMs, '', 'asking the adb server for its version');
  try {
    await raceDeadline(
      client.version(),
      deadline.signal,
      () => new DeviceIoError('server-unreachable', 'the adb server did not answer'),
    );
    return true;
  } catch (e) {
    return classifyAdbError(e);
  } finally {
    deadline.dispose();
  }
}

/** Resolves once the server answers; starts a local one if needed; throws a DeviceIoError otherwise. */
export async function ensureAdbServer(
  client: Client,
  address: AdbServerAddress,
  clock: Clock,
  timeoutMs = 20_000,
): Promise<void> {
  const first = await answers(client, clock, Math.min(timeoutMs, 5_000));
  if (first === true) return;
  // adbkit itself tries `adb start-server` on a refused connection; a missing program surfaces here.
  if (first.kind === 'adb-missing')
    throw new DeviceIoError('adb-missing', `The adb program ('${address.adbPath}') was not found.`);
  if (!LOCAL_HOSTS.has(address.host)) {
    throw new DeviceIoError(
      'server-unreachable',
      `No adb server answers at ${address.host}:${address.port} (${first.message}).`,
    );
  }
  await runAdb(address.adbPath, ['-P', String(address.port), 'start-server'], timeoutMs);
  const second = await answers(client, clock, timeoutMs);
  if (second !== true) throw second;
}
