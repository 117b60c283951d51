/**
 * logcat: the device log, bounded — the last N lines, optionally of one tag, at or above a
 * level, of one process (by pid or package), matching a regex, or from the last N seconds.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { ShellWords, sh } from '../shell-words';
import { defineDeviceTool } from './device-tool';
import { PACKAGE_NAME, requireSuccess } from './arguments';

const MAX_BYTES = 256 * 1024;
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
      const words: (string | number)[] = ['-d', '-v', 'threadtime', '-t', args.lines];
      if (pid !== undefined) words.push(`--pid=${pid}`);
      if (args.grep) words.push('-e', args.grep);
      if (args.tag) words.push('-s', `${args.tag}:${args.level}`);
      else words.push(`*:${args.level}`);
      const clock = args.sinceSeconds ? "date '+%Y-%m-%d %H:%M:%S'; " : '';
      const r = await device.run(`${clock}${sh`logcat ${ShellWords.of(words)}`}`, { maxBytes: MAX_BYTES });
      const out = r.truncated
        ? r.output
        : requireSuccess(r, '`logcat`', 'Check the filter (an invalid regular expression in grep fails), then retry.');
      let lines = out.split('\n').filter((l) => l !== '' && !l.startsWith('--------- beginning of'));
      if (args.sinceSeconds) {
        const cutoff = logStampBefore(lines.shift() ?? '', args.sinceSeconds);
        if (cutoff) lines = lines.filter((l) => (STAMP.exec(l)?.[1] ?? '') >= cutoff);
      }
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
