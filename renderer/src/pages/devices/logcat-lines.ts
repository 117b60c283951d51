/** Logcat lines as the pane shows them: the priority letter (for colour) and a text filter. */
export type LogLevel = 'V' | 'D' | 'I' | 'W' | 'E' | 'F' | 'A';

// threadtime: "01-02 12:00:00.000  1234  1240 E Tag: msg"; time: "01-02 12:00:00.000 E/Tag( 123): msg";
// brief: "E/Tag( 123): msg".
const THREADTIME = /^\d\d-\d\d\s+\d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+\s+([VDIWEFA])\s/;
const TIME_OR_BRIEF = /^(?:\d\d-\d\d\s+\d\d:\d\d:\d\d\.\d+\s+)?([VDIWEFA])\//;

export function logLevel(line: string): LogLevel | undefined {
  const m = THREADTIME.exec(line) ?? TIME_OR_BRIEF.exec(line);
  return m?.[1] as LogLevel | undefined;
}

/** Case-insensitive substring filter; an empty filter keeps everything. */
export function filterLines(lines: readonly string[], text: string): readonly string[] {
  const needle = text.trim().toLowerCase();
  return needle ? lines.filter((l) => l.toLowerCase().includes(needle)) : lines;
}
