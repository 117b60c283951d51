/** The host's log: a file in the data dir, and stderr. Never stdout, which carries only the ready line. */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

export interface HostLog {
  (line: string): void;
  close(): Promise<void>;
}

export function openHostLog(dir: string, echo: boolean = process.env.TOOLGATE_QUIET !== '1'): HostLog {
  const file = createWriteStream(join(dir, 'host.log'), { flags: 'a' });
  file.on('error', () => undefined);
  const log = ((line: string) => {
    const stamped = `${new Date().toISOString()} ${line}\n`;
    file.write(stamped);
    if (echo) process.stderr.write(stamped);
  }) as HostLog;
  log.close = () => new Promise<void>((resolve) => file.end(() => resolve()));
  return log;
}
