/**
 * The newest bytes of a command's output, at most `limit` of them, and how many came in all: a
 * command printing gigabytes costs no more memory than one printing a line. An output log with the
 * limit as its budget (output-log.ts).
 */
import { OutputLog } from './output-log';

export class OutputTail {
  private readonly log: OutputLog;
  private peak = 0;

  constructor(private readonly limit: number) {
    this.log = new OutputLog(limit);
  }

  /** Bytes that came in all. */
  get bytes(): number {
    return this.log.end;
  }

  /** The most memory the kept bytes ever held (OutputLog.retainedBytes), when `measure` was asked. */
  get peakHeld(): number {
    return this.peak;
  }

  push(bytes: Buffer, measure = false): void {
    this.log.append(bytes);
    if (measure) this.peak = Math.max(this.peak, this.log.retainedBytes());
  }

  /** The last `max` bytes (default: the limit). */
  last(max = this.limit): Buffer {
    return this.log.tail(max).data;
  }
}
