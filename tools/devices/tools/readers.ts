/** Device state readers of the utility family: the last known location and the notifications. */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { defineDeviceTool } from './device-tool';
import { PACKAGE_NAME, requireSuccess } from './arguments';

const READ_SENSITIVE = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
  sensitiveAction: true,
};

export function getLocationTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'get_location',
    title: 'Device location',
    description:
      "The device's last known location (latitude, longitude, accuracy in meters, provider) from the location service, and whether location is switched on.",
    input: {},
    metadata: { category: 'utility', risk: 'LOW', tags: ['device', 'utility'] },
    annotations: READ_SENSITIVE,
    async run(_args, device) {
      const dump = requireSuccess(await device.run('dumpsys location'), '`dumpsys location`');
      const enabled = /Location Setting:\s*(ON|OFF)/i.exec(dump)?.[1];
      const m =
        /Location\[(\S+) (-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)(?: hAcc=(\d+(?:\.\d+)?))?[^\]]*?(?: alt=(-?\d+(?:\.\d+)?))?[^\]]*\]/.exec(
          dump,
        );
      if (!m) {
        throw new ToolCallError(
          'NOT_FOUND',
          `Device ${device.serial} has no last known location${enabled?.toUpperCase() === 'OFF' ? ' (location is switched off)' : ''}.`,
          {
            hint: 'Location must be on and some app must have requested a fix; turn it on (get_set_settings secure location_mode 3) or open a maps app, then retry.',
          },
        );
      }
      return jsonSuccess({
        serial: device.serial,
        enabled: enabled === undefined ? null : enabled.toUpperCase() === 'ON',
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

export function parseNotifications(dump: string): Notification[] {
  const records = dump.split(/^\s*NotificationRecord\(/m).slice(1);
  return records.map((rec) => {
    const field = (re: RegExp) => re.exec(rec)?.[1] ?? null;
    const tag = field(/ tag=(\S+)/);
    const post = field(/postTime=(\d+)/);
    return {
      packageName: field(/pkg=(\S+)/) ?? '',
      id: Number(field(/ id=(-?\d+)/) ?? 0),
      tag: tag === 'null' ? null : tag,
      title: field(/android\.title=\w+ \((.*)\)\s*$/m),
      text: field(/android\.text=\w+ \((.*)\)\s*$/m),
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
      packageName: PACKAGE_NAME.optional().describe('Only notifications of this app.'),
      limit: z.number().int().min(1).max(100).default(20).describe('At most this many notifications (default 20).'),
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
