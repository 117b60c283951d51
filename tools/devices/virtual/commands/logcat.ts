/**
 * `logcat`: text output from the phone's ring buffer, or binary with -B (logger_entry v4 records,
 * what adbkit's openLogcat parses). Without -d (or -t) it keeps the stream open and follows new entries.
 * Supported: -d, -c, -t N, -T N, -s, -v brief|threadtime|time|tag|process|raw, --pid=P / --pid P,
 * -e REGEX, -m N, -b BUFFER (ignored), and filter specs TAG:LEVEL / TAG / *:LEVEL / *.
 *
 * Where each step happens follows AOSP system/logging: logd serves a reader only the tail count,
 * the buffers and the pid it asked for (`logd/LogReader.cpp`), and logcat applies the tag/level
 * specs and -e to what it receives (`logcat/logcat.cpp` `ProcessBuffer`). So `-t N TAG:L` prints the
 * lines of TAG among the last N entries, which can be fewer than N.
 */
import { waitForAbort } from '../faults';
import { LOG_LEVELS, type LogEntry, type LogLevel } from '../phone/logbuffer';
import { strftime } from './basic';
import type { CommandHandler } from './types';

const LEVEL_ORDER = [...LOG_LEVELS, 'S'];

/** What logd selects for a reader (`LogReader.cpp`: pid and tail) and what logcat filters after. */
interface Filter {
  specs: Map<string, string>;
  pid?: number;
  regex?: RegExp;
}

/** logd's side: only the pid (the buffers are one here). */
function served(entry: LogEntry, f: Filter): boolean {
  return f.pid === undefined || entry.pid === f.pid;
}

/** logcat's side: the filter specs (`android_log_shouldPrintLine`), then -e. */
function shown(entry: LogEntry, f: Filter): boolean {
  if (f.regex && !f.regex.test(entry.message)) return false;
  const min = f.specs.get(entry.tag) ?? f.specs.get('*') ?? 'V';
  return LEVEL_ORDER.indexOf(entry.level) >= LEVEL_ORDER.indexOf(min.toUpperCase());
}

/**
 * One filter spec, as liblog `logprint.cpp` `android_log_addFilterRule` reads it: `TAG:L`, or a
 * bare TAG (verbose); a bare `*` is the global rule at DEBUG ("the default level for this is DEBUG
 * if the priority is unspecified").
 */
function addSpec(specs: Map<string, string>, spec: string): void {
  const colon = spec.indexOf(':');
  const tag = colon > 0 ? spec.slice(0, colon) : spec;
  const level = colon > 0 ? spec.slice(colon + 1, colon + 2) : tag === '*' ? 'D' : 'V';
  specs.set(tag, level);
}

function stamp(entry: LogEntry): string {
  return `${strftime('%m-%d %H:%M:%S', entry.time)}.${String(entry.time % 1000).padStart(3, '0')}`;
}

/**
 * One line in a `-v` format: liblog `logprint.cpp` `android_log_formatLogLine` — brief
 * `"%c/%-8.*s(%s%5d): "`, time `"%s %c/%-8.*s(%s%5d): "`, tag `"%c/%-8.*s: "`, process
 * `"%c(%s%5d) "` … `"  (%.*s)"`, threadtime `"%s %s%5d %5d %c %-8.*s: "` (the tag at least 8 wide).
 */
export function formatEntry(entry: LogEntry, format: string): string {
  const { level, pid, tid, message } = entry;
  const tag = entry.tag.padEnd(8);
  switch (format) {
    case 'brief':
      return `${level}/${tag}(${String(pid).padStart(5)}): ${message}\n`;
    case 'time':
      return `${stamp(entry)} ${level}/${tag}(${String(pid).padStart(5)}): ${message}\n`;
    case 'tag':
      return `${level}/${tag}: ${message}\n`;
    case 'process':
      return `${level}(${String(pid).padStart(5)}) ${message}  (${entry.tag})\n`;
    case 'raw':
      return `${message}\n`;
    default:
      return `${stamp(entry)} ${String(pid).padStart(5)} ${String(tid).padStart(5)} ${level} ${tag}: ${message}\n`;
  }
}

const PRIORITY: Record<LogLevel, number> = { V: 2, D: 3, I: 4, W: 5, E: 6, F: 7 };

/** One logger_entry v4 record: len, hdr_size, pid, tid, sec, nsec, lid, uid, then prio/tag/msg. */
export function binaryEntry(entry: LogEntry): Buffer {
  const payload = Buffer.concat([
    Buffer.from([PRIORITY[entry.level]]),
    Buffer.from(`${entry.tag}\0${entry.message}\0`, 'utf8'),
  ]);
  const header = Buffer.alloc(28);
  header.writeUInt16LE(payload.length, 0);
  header.writeUInt16LE(28, 2);
  header.writeInt32LE(entry.pid, 4);
  header.writeInt32LE(entry.tid, 8);
  header.writeInt32LE(Math.floor(entry.time / 1000), 12);
  header.writeInt32LE((entry.time % 1000) * 1_000_000, 16);
  header.writeUInt32LE(0, 20);
  header.writeUInt32LE(entry.pid === 612 ? 1000 : 10000, 24);
  return Buffer.concat([header, payload]);
}

export const logcat: CommandHandler = async (ctx) => {
  const args = ctx.argv.slice(1);
  const filter: Filter = { specs: new Map() };
  let dump = false;
  let binary = false;
  let format = 'threadtime';
  let tail: number | undefined;
  let max: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const next = (): string => args[++i] ?? '';
    if (arg === '-d') dump = true;
    else if (arg === '-c') {
      ctx.phone.log.clear();
      return 0;
    } else if (arg === '-B' || arg === '--binary') binary = true;
    else if (arg === '-s') filter.specs.set('*', 'S');
    else if (arg === '-v') format = next();
    // logcat.cpp: "-t <count> Print only the most recent <count> lines (implies -d)",
    // "-T <count> Print only the most recent <count> lines (does not imply -d)".
    else if (arg === '-t') {
      tail = Number(next());
      dump = true;
    } else if (arg === '-T') tail = Number(next());
    else if (arg === '-m') max = Number(next());
    else if (arg === '-b') next();
    else if (arg === '-e') filter.regex = new RegExp(next());
    else if (arg === '--pid') filter.pid = Number(next());
    else if (arg.startsWith('--pid=')) filter.pid = Number(arg.slice(6));
    else if (/^-t\d+$/.test(arg)) {
      tail = Number(arg.slice(2));
      dump = true;
    } else if (/^-T\d+$/.test(arg)) tail = Number(arg.slice(2));
    // android_log_addFilterString: one argument may hold several specs separated by white space.
    else if (!arg.startsWith('-')) for (const spec of arg.split(/\s+/).filter(Boolean)) addSpec(filter.specs, spec);
  }
  let printed = 0;
  const write = (entry: LogEntry): void => {
    if (!binary && printed === 0) ctx.out('--------- beginning of main\n');
    printed++;
    ctx.stdout.write(binary ? binaryEntry(entry) : formatEntry(entry, format));
  };
  const done = (): boolean => max !== undefined && printed >= max;
  let window = ctx.phone.log.all().filter((e) => served(e, filter));
  if (tail !== undefined) window = window.slice(-tail);
  for (const entry of window) {
    if (done()) break;
    if (shown(entry, filter)) write(entry);
  }
  if (dump || done()) return 0;
  const finished = new AbortController();
  const unsubscribe = ctx.phone.log.subscribe((entry) => {
    if (done() || !served(entry, filter) || !shown(entry, filter)) return;
    write(entry);
    if (done()) finished.abort();
  });
  await waitForAbort(AbortSignal.any([ctx.signal, finished.signal]));
  unsubscribe();
  return 0;
};
