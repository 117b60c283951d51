/**
 * `logcat`: text output from the phone's ring buffer, or binary with -B (logger_entry v4 records,
 * what adbkit's openLogcat parses). Without -d it keeps the stream open and follows new entries.
 * Supported: -d, -c, -t N, -T N, -s, -v brief|threadtime|time|tag|process|raw, --pid=P / --pid P,
 * -e REGEX, -m N, -b BUFFER (ignored), and filter specs TAG:LEVEL / *:LEVEL.
 */
import { waitForAbort } from '../faults';
import { LOG_LEVELS, type LogEntry, type LogLevel } from '../phone/logbuffer';
import { strftime } from './basic';
import type { CommandHandler } from './types';

const LEVEL_ORDER = [...LOG_LEVELS, 'S'];

interface Filter {
  specs: Map<string, string>;
  pid?: number;
  regex?: RegExp;
}

function passes(entry: LogEntry, f: Filter): boolean {
  if (f.pid !== undefined && entry.pid !== f.pid) return false;
  if (f.regex && !f.regex.test(entry.message)) return false;
  const min = f.specs.get(entry.tag) ?? f.specs.get('*') ?? 'V';
  return LEVEL_ORDER.indexOf(entry.level) >= LEVEL_ORDER.indexOf(min.toUpperCase());
}

function stamp(entry: LogEntry): string {
  return `${strftime('%m-%d %H:%M:%S', entry.time)}.${String(entry.time % 1000).padStart(3, '0')}`;
}

export function formatEntry(entry: LogEntry, format: string): string {
  const { level, tag, pid, tid, message } = entry;
  switch (format) {
    case 'brief':
      return `${level}/${tag}(${String(pid).padStart(5)}): ${message}\n`;
    case 'time':
      return `${stamp(entry)} ${level}/${tag}(${String(pid).padStart(5)}): ${message}\n`;
    case 'tag':
      return `${level}/${tag}: ${message}\n`;
    case 'process':
      return `${level}(${String(pid).padStart(5)}) ${message}  (${tag})\n`;
    case 'raw':
      return `${message}\n`;
    default:
      return (
        `${stamp(entry)} ${String(pid).padStart(5)} ${String(tid).padStart(5)} ${level} ` +
        `${tag.padEnd(8)}: ${message}\n`
      );
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
    else if (arg === '-t' || arg === '-T') tail = Number(next());
    else if (arg === '-m') max = Number(next());
    else if (arg === '-b') next();
    else if (arg === '-e') filter.regex = new RegExp(next());
    else if (arg === '--pid') filter.pid = Number(next());
    else if (arg.startsWith('--pid=')) filter.pid = Number(arg.slice(6));
    else if (/^-t\d+$/.test(arg)) tail = Number(arg.slice(2));
    else if (!arg.startsWith('-')) {
      const colon = arg.lastIndexOf(':');
      filter.specs.set(colon > 0 ? arg.slice(0, colon) : arg, colon > 0 ? arg.slice(colon + 1) : 'V');
    }
  }
  if (tail !== undefined) dump = true;
  const write = (entry: LogEntry): void => ctx.stdout.write(binary ? binaryEntry(entry) : formatEntry(entry, format));
  let entries = ctx.phone.log.all().filter((e) => passes(e, filter));
  if (tail !== undefined) entries = entries.slice(-tail);
  if (max !== undefined) entries = entries.slice(0, max);
  if (!binary && entries.length > 0) ctx.out('--------- beginning of main\n');
  for (const entry of entries) write(entry);
  if (dump || (max !== undefined && entries.length >= max)) return 0;
  const unsubscribe = ctx.phone.log.subscribe((entry) => {
    if (passes(entry, filter)) write(entry);
  });
  await waitForAbort(ctx.signal);
  unsubscribe();
  return 0;
};
