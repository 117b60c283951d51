/**
 * The newest bytes of a command's output, at most `limit` of them, and how many came in all: a
 * command printing gigabytes costs no more memory than one printing a line. An output log with the
 * limit as its budget (output-log.ts).
 */
import { OutputLog } from './output-log';

export class OutputTail {
  private readonly log: OutputLog;

  constructor(private readonly limit: number) {
    this.log = new OutputLog(limit);
  }

  /** Bytes that came in all. */
  get bytes(): number {
    return this.log.end;
  }

  push(bytes: Buffer): void {
    this.log.append(bytes);
  }

  /** The last `max` bytes (default: the limit). */
  last(max = this.limit): Buffer {
    return this.log.tail(max).data;
  }
}
