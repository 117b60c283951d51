/** The host's log: a file in the data dir, and stderr. Never stdout, which carries only the ready line. */
import { createWriteStream, fchmodSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceSpan } from '../core/trace-span';

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

/**
 * The log line of a failed attempt: call id, tool, attempt, code and the span's error text, which
 * the pipeline already cleaned of argument text (and of line breaks, so one failure is one line).
 * No session id: the log is read by people, a session id is a client's credential.
 */
export function failureLogLine(span: TraceSpan): string {
  const text = span.errorText ? `: ${span.errorText}` : '';
  return `call ${span.callId} ${span.toolId} attempt ${span.attempt} failed ${span.errorCode ?? 'UNKNOWN'}${text}`;
}
