/**
 * control_media: sends a transport key to the media session and reports the state afterwards.
 * `cmd media_session dispatch` exists since Android 10; older phones answer it with Binder's "No
 * shell command implementation." and have the `media` program instead. Both exit 0 with no
 * session at all, so the sessions are read first and a missing one is said. The state is read from
 * `dumpsys media_session`: `state=PlaybackState {state=PLAYING(3), …}` on newer builds, `state=3`
 * on older ones.
 */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { firstLines } from './arguments';
import { type DeviceCall, defineDeviceTool } from './device-tool';

const STATE_NAMES: Record<string, string> = {
  '0': 'none',
  '1': 'stopped',
  '2': 'paused',
  '3': 'playing',
  '4': 'fast-forwarding',
  '5': 'rewinding',
  '6': 'buffering',
  '7': 'error',
  '8': 'connecting',
  '9': 'skipping-to-previous',
  '10': 'skipping-to-next',
  '11': 'skipping-to-queue-item',
};

export interface MediaSessionInfo {
  /** `PKG/TAG…` as the dump names the session. */
  name: string;
  packageName: string | null;
  active: boolean;
  state: string | null;
  stateCode: number | null;
  track: string | null;
}

/** The sessions of `dumpsys media_session`, the media button session first. */
export function parseMediaSessions(dump: string): MediaSessionInfo[] {
  const buttonSession = /Media button session is (\S+)/.exec(dump)?.[1];
  const blocks = dump.split(/^ {4}(?=\S+ \S+\/\S+ \(userId=\d+\)$)/m).slice(1);
  const sessions = blocks.map((block): MediaSessionInfo => {
    const head = /^\S+ (\S+) \(userId=\d+\)/.exec(block);
    const state = /state=PlaybackState \{state=(?:([A-Z_]+)\((\d+)\)|(\d+))/.exec(block);
    const code = state ? (state[2] ?? state[3]) : undefined;
    const metadata = /metadata: ?(?:size=\d+, description=)?(.*)$/m.exec(block)?.[1]?.trim();
    return {
      name: head?.[1] ?? '',
      packageName: /^ {6}package=(\S+)/m.exec(block)?.[1] ?? null,
      active: /^ {6}active=true/m.test(block),
      state: code === undefined ? null : (STATE_NAMES[code] ?? (state?.[1]?.toLowerCase() || code)),
      stateCode: code === undefined ? null : Number(code),
      track: metadata && metadata !== 'null' ? metadata : null,
    };
  });
  return sessions.sort((a, b) => Number(b.name === buttonSession) - Number(a.name === buttonSession));
}

async function readSessions(device: DeviceCall): Promise<MediaSessionInfo[]> {
  return parseMediaSessions((await device.run('dumpsys media_session', { maxBytes: 2 * 1024 * 1024 })).output);
}

async function dispatch(device: DeviceCall, action: string): Promise<string> {
  const modern = await device.run(sh`cmd media_session dispatch ${action}`);
  if (modern.exitCode === 0 && !/No shell command implementation|Can't find service/.test(modern.output))
    return 'cmd media_session dispatch';
  const legacy = await device.run(sh`media dispatch ${action}`);
  if (legacy.exitCode === 0) return 'media dispatch';
  throw new ToolCallError(
    'UNSUPPORTED',
    `${device.serial} has no shell command for media keys: ` +
      `\`cmd media_session\` answered "${firstLines(modern.output)}" and \`media\` "${firstLines(legacy.output)}".`,
    { hint: 'Use the media app itself: app_launch it and ui_tap its play/pause buttons.' },
  );
}

export function controlMediaTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'control_media',
    title: 'Control media playback',
    description: 'Sends play, pause, next… to the active media session and reports its playback state and track.',
    input: {
      action: z.enum(['play', 'pause', 'play-pause', 'next', 'previous', 'stop']),
    },
    metadata: { category: 'system', risk: 'MEDIUM', tags: ['device', 'system'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    async run(args, device) {
      const before = (await readSessions(device))[0];
      if (!before)
        throw new ToolCallError(
          'NOT_FOUND',
          `No app has a media session on ${device.serial} (dumpsys media_session lists none), ` +
            'so there is nothing to control.',
          { hint: 'Open a media app and start something (app_launch, then its play button), then retry.' },
        );
      // A media key may change what the player's screen shows: an earlier ui_dump is checked again.
      service.telemetry.invalidate(device.serial);
      const via = await dispatch(device, args.action);
      let after = before;
      // Apps update their session a moment after the key: look again briefly when nothing moved yet.
      for (let i = 0; i < 4; i++) {
        after = (await readSessions(device)).find((s) => s.name === before.name) ?? before;
        if (after.state !== before.state || after.track !== before.track) break;
        await new Promise((r) => setTimeout(r, 150));
      }
      return jsonSuccess({
        serial: device.serial,
        sent: args.action,
        via,
        session: after.name,
        packageName: after.packageName,
        state: after.state,
        stateCode: after.stateCode,
        track: after.track,
        changed: after.state !== before.state || after.track !== before.track,
      });
    },
  });
}
