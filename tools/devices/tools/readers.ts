/** Device state readers of the utility family: the last known location and the notifications. */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { defineDeviceTool } from './device-tool';
import { PACKAGE_NAME, SEPARATOR, requireSuccess, splitParts } from './arguments';

const READ_SENSITIVE = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
  sensitiveAction: true,
};

/**
 * Whether location is on, from `dumpsys location`: "Location Setting: true" (Android 12+; with
 * several running users "[u0] true" on the lines below), else `settings get secure location_mode`
 * (0 = off), which phones before Android 12 answer.
 */
export function locationEnabled(dump: string, locationMode: string): boolean | null {
  const single = /Location Setting: (true|false)\s*$/m.exec(dump)?.[1];
  if (single) return single === 'true';
  const owner = /Location Setting:\s*\n\s*\[u0\] (true|false)/.exec(dump)?.[1];
  if (owner) return owner === 'true';
  const mode = locationMode.trim();
  return /^\d+$/.test(mode) ? mode !== '0' : null;
}

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const LOCATION = new RegExp(
  String.raw`Location\[(\S+) (${NUMBER}),(${NUMBER})(?: hAcc=(\d+(?:\.\d+)?))?[^\]]*?(?: alt=(${NUMBER}))?[^\]]*\]`,
);

export function getLocationTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'get_location',
    title: 'Device location',
    description:
      "The device's last known location (latitude, longitude, accuracy in meters, provider), " +
      'and whether location is on.',
    input: {},
    metadata: { category: 'utility', risk: 'LOW', tags: ['device', 'utility'] },
    annotations: READ_SENSITIVE,
    async run(_args, device) {
      const r = await device.run(`dumpsys location; echo ${SEPARATOR}; settings get secure location_mode`, {
        maxBytes: 4 * 1024 * 1024,
      });
      const [dump = '', mode = ''] = splitParts(requireSuccess(r, '`dumpsys location`'));
      const enabled = locationEnabled(dump, mode);
      // Android 12+ lists a last location per provider; the fused one is what apps get.
      const lines = dump.split('\n').filter((l) => /last location=Location\[|^\s+\w+: Location\[/.test(l));
      const line = lines.find((l) => l.includes('Location[fused')) ?? lines[0];
      const m = line ? LOCATION.exec(line) : null;
      if (!m) {
        throw new ToolCallError(
          'NOT_FOUND',
          `Device ${device.serial} has no last known location` +
            `${enabled === false ? ' (location is switched off)' : ''}.`,
          {
            hint:
              enabled === false
                ? 'Location is off: ask the user to turn it on (quick settings), or change it with ' +
                  'get_set_settings (secure location_mode 3), then open a maps app and retry.'
                : 'Some app must have requested a fix; open a maps app, then retry.',
            data: { enabled },
          },
        );
      }
      return jsonSuccess({
        serial: device.serial,
        enabled,
        provider: m[1],
        latitude: Number(m[2]),
        longitude: Number(m[3]),
        accuracyMeters: m[4] === undefined ? null : Number(m[4]),
        altitudeMeters: m[5] === undefined ? null : Number(m[5]),
      });
    },
  });
}

interface Notification {
  packageName: string;
  id: number;
  tag: string | null;
  title: string | null;
  text: string | null;
  postTime: number | null;
}

/** The extras block of a record's notification: `key=Type (value)`, a value running on over lines. */
function extras(record: string): Map<string, string | null> {
  const values = new Map<string, string | null>();
  const open = /^( *)extras=\{$/m.exec(record);
  if (!open) return values;
  const indent = open[1] ?? '';
  const body = record.slice((open.index ?? 0) + open[0].length + 1);
  const end = body.search(new RegExp(`^${indent}\\}$`, 'm'));
  const entries = (end >= 0 ? body.slice(0, end) : body).split(new RegExp(`^${indent} {4}(?=[\\w.$]+=)`, 'm'));
  for (const entry of entries) {
    const m = /^([\w.$]+)=(\w+)(?: \(([\s\S]*)\))?\s*$/.exec(entry.replace(/\n$/, ''));
    if (m?.[1]) values.set(m[1], m[3] ?? null);
  }
  return values;
}

export function parseNotifications(dump: string): Notification[] {
  const records = dump.split(/^\s*NotificationRecord\(/m).slice(1);
  return records.map((rec) => {
    const field = (re: RegExp) => re.exec(rec)?.[1] ?? null;
    const tag = field(/ tag=(\S+)/);
    const post = field(/mCreationTimeMs=(\d+)/) ?? field(/ when=(\d+)/);
    const ex = extras(rec);
    return {
      packageName: field(/pkg=(\S+)/) ?? '',
      id: Number(field(/ id=(-?\d+)/) ?? 0),
      tag: tag === 'null' ? null : tag,
      title: ex.get('android.title') ?? null,
      text: ex.get('android.bigText') ?? ex.get('android.text') ?? null,
      postTime: post === null ? null : Number(post),
    };
  });
}

export function notificationReadTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'notification_read',
    title: 'Read notifications',
    description: 'Lists the notifications currently posted on the device (app, title, text, time), newest first.',
    input: {
      packageName: PACKAGE_NAME.optional(),
      limit: z.number().int().min(1).max(100).default(20),
    },
    metadata: { category: 'utility', risk: 'LOW', tags: ['device', 'utility'] },
    annotations: READ_SENSITIVE,
    async run(args, device) {
      const dump = requireSuccess(
        await device.run('dumpsys notification --noredact', { maxBytes: 4 * 1024 * 1024 }),
        '`dumpsys notification`',
      );
      const all = parseNotifications(dump)
        .filter((n) => !args.packageName || n.packageName === args.packageName)
        .sort((a, b) => (b.postTime ?? 0) - (a.postTime ?? 0));
      const shown = all
        .slice(0, args.limit)
        .map((n) => ({ ...n, posted: n.postTime === null ? null : new Date(n.postTime).toISOString() }));
      return jsonSuccess({ serial: device.serial, count: all.length, notifications: shown });
    },
  });
}
