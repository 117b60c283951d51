/** The phone's log ring buffer (what `logcat` reads), with live subscribers for `logcat` without -d. */

export type LogLevel = 'V' | 'D' | 'I' | 'W' | 'E' | 'F';

export const LOG_LEVELS: readonly LogLevel[] = ['V', 'D', 'I', 'W', 'E', 'F'];

export interface LogEntry {
  /** Milliseconds since the epoch. */
  time: number;
  pid: number;
  tid: number;
  level: LogLevel;
  tag: string;
  message: string;
}

export class LogBuffer {
  private entries: LogEntry[] = [];
  private readonly listeners = new Set<(entry: LogEntry) => void>();

  constructor(
    private readonly now: () => number,
    private readonly capacity = 5000,
  ) {}

  add(level: LogLevel, tag: string, message: string, pid = 1000, tid = pid): LogEntry {
    const entry: LogEntry = { time: this.now(), pid, tid, level, tag, message };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const listener of this.listeners) listener(entry);
    return entry;
  }

  all(): readonly LogEntry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }

  /** Calls `listener` for every new entry until the returned function is called. */
  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
