/**
 * logcat: the device log, bounded — the last N lines, optionally of one tag, at or above a
 * level, of one process (by pid or package), matching a regex, or from the last N seconds.
 *
 * `logcat -t N` counts the last N entries before the tag, level and -e filters (logd serves a reader
 * only the tail, the buffers and the pid; logcat filters what it gets: AOSP system/logging
 * `logd/LogReader.cpp`, `logcat/logcat.cpp`), so "the last N lines of a tag" can take a wider
 * window: the tool widens it until N lines match or the whole buffer was read.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { ShellWords, sh } from '../shell-words';
import { type CommandOutput, defineDeviceTool } from './device-tool';
import { PACKAGE_NAME, requireSuccess } from './arguments';

const MAX_BYTES = 256 * 1024;
/** Windows after a first one of N entries came back short: 10N, then 100N, then the whole buffer. */
const WIDENING = [10, 100];
const STAMP = /^(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})/;

/** `MM-DD HH:MM:SS.mmm` of a device-local wall-clock time given as "YYYY-MM-DD HH:MM:SS" minus `seconds`. */
export function logStampBefore(deviceLocal: string, seconds: number): string | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(deviceLocal.trim());
  if (!m) return undefined;
  // Local wall-clock arithmetic done in UTC fields, so the host's own time zone plays no part.
  const t = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) - seconds * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const time = `${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(t.getUTCSeconds())}.000`;
  return `${p(t.getUTCMonth() + 1)}-${p(t.getUTCDate())} ${time}`;
}

/** The lines of a logcat answer but its "beginning of" dividers (with the clock line, when one was asked for). */
function logLines(out: string): string[] {
  return out.split('\n').filter((l) => l !== '' && !l.startsWith('--------- beginning of'));
}

export function logcatTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'logcat',
    title: 'Read the device log',
    description:
      'The latest lines of the device log (logcat), oldest first, by tag, level, process, text or age. ' +
      'Crashes are tag "AndroidRuntime" at level E.',
    input: {
      lines: z.number().int().min(1).max(2000).default(100),
      tag: z.string().min(1).max(100).optional().describe('e.g. "ActivityManager".'),
      level: z.enum(['V', 'D', 'I', 'W', 'E', 'F']).default('V').describe('The lowest priority shown.'),
      pid: z.number().int().min(1).optional(),
      packageName: PACKAGE_NAME.optional().describe("Its running process's lines."),
      grep: z.string().min(1).max(200).optional().describe('A regex the message matches.'),
      sinceSeconds: z.number().int().min(1).max(86_400).optional(),
    },
    metadata: { category: 'system', risk: 'LOW', tags: ['device', 'system'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    async run(args, device) {
      let pid = args.pid;
      if (args.packageName) {
        const found = (await device.run(sh`pidof ${args.packageName}`)).output.trim().split(/\s+/)[0];
        if (!found) {
          throw new ToolCallError(
            'NOT_FOUND',
            `${args.packageName} is not running on ${device.serial}, so it has no process to read logs of.`,
            {
              hint: 'Launch it (app_launch) first, or filter by tag instead of package.',
              data: { fields: ['packageName'] },
            },
          );
        }
        pid = Number(found);
      }
      const filters: string[] = [];
      if (pid !== undefined) filters.push(`--pid=${pid}`);
      if (args.grep) filters.push('-e', args.grep);
      if (args.tag) filters.push('-s', `${args.tag}:${args.level}`);
      else filters.push(`*:${args.level}`);
      // Only the pid is applied before -t counts; a tag, a level above V or a regex may leave fewer lines.
      const filtered = args.tag !== undefined || args.level !== 'V' || args.grep !== undefined;
      const wider = WIDENING.map((factor) => args.lines * factor);
      const windows: (number | undefined)[] = filtered ? [args.lines, ...wider, undefined] : [args.lines];
      const clock = args.sinceSeconds ? "date '+%Y-%m-%d %H:%M:%S'; " : '';
      let r: CommandOutput | undefined;
      let out = '';
      for (const window of windows) {
        const words = ['-d', '-v', 'threadtime', ...(window === undefined ? [] : ['-t', window]), ...filters];
        r = await device.run(`${clock}${sh`logcat ${ShellWords.of(words)}`}`, { maxBytes: MAX_BYTES });
        out = r.truncated
          ? r.output
          : requireSuccess(
              r,
              '`logcat`',
              'Check the filter (an invalid regular expression in grep fails), then retry.',
            );
        if (r.truncated || logLines(out).length - (clock ? 1 : 0) >= args.lines) break;
      }
      if (!r) throw new Error('no logcat window was read');
      let lines = logLines(out);
      if (args.sinceSeconds) {
        const cutoff = logStampBefore(lines.shift() ?? '', args.sinceSeconds);
        if (cutoff) lines = lines.filter((l) => (STAMP.exec(l)?.[1] ?? '') >= cutoff);
      }
      // A wider window can hold more than N matching lines: the last N are the answer.
      if (!r.truncated) lines = lines.slice(-args.lines);
      const cut = r.truncated ? ` (cut at ${MAX_BYTES / 1024} KB; ask for fewer lines)` : '';
      const head = `${lines.length} log line(s) from ${device.serial}${cut}:`;
      return success(lines.length > 0 ? `${head}\n${lines.join('\n')}` : `${head} none matched.`, {
        serial: device.serial,
        lines: lines.length,
        truncated: r.truncated,
      });
    },
  });
}
