/** The host's log: a file in the data dir, and stderr. Never stdout, which carries only the ready line. */
import { createWriteStream, fchmodSync, openSync } from 'node:fs';
import { join } from 'node:path';

export interface HostLog {
  (line: string): void;
  close(): Promise<void>;
}

export function openHostLog(dir: string, echo: boolean = process.env.TOOLGATE_QUIET !== '1'): HostLog {
  const path = join(dir, 'host.log');
  // The owner's only (0600), also a log an older version left readable to everyone.
  const fd = openSync(path, 'a', 0o600);
  fchmodSync(fd, 0o600);
  const file = createWriteStream(path, { fd });
  file.on('error', () => undefined);
  const log = ((line: string) => {
    const stamped = `${new Date().toISOString()} ${line}\n`;
    file.write(stamped);
    if (echo) process.stderr.write(stamped);
  }) as HostLog;
  log.close = () => new Promise<void>((resolve) => file.end(() => resolve()));
  return log;
}
