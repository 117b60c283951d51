/**
 * `cmd SERVICE …` (and `media` on phones before Android 10). A service without a shell command
 * answers as Binder's default onShellCommand does: "No shell command implementation." on the error
 * stream, status 0 — what `cmd clipboard` gets on every Android (ClipboardService has none), and
 * `cmd media_session` / `cmd location` before Android 10 / 11.
 * Media: `cmd media_session dispatch KEY` (MediaShellCommand: no output; an unknown key prints the
 * usage and "Error: unknown dispatch code", status 0 all the same).
 * Location: `cmd location is-location-enabled`, `set-location-enabled true|false`,
 *   `providers set-test-provider-location PROVIDER --location LAT,LNG [--accuracy M]`.
 * Notifications: `cmd notification post [-t TITLE] TAG TEXT`.
 */
import { am } from './am';
import { input } from './input';
import { pm } from './pm';
import type { CommandContext, CommandHandler } from './types';

function withArgv(ctx: CommandContext, argv: string[]): CommandContext {
  return { ...ctx, argv };
}

const NO_SHELL_COMMAND = 'No shell command implementation.\n';

const MEDIA_USAGE = `usage: media_session [subcommand] [options]
       media_session dispatch KEY
       media_session list-sessions
       media_session monitor <tag>
       media_session volume [options]

media_session dispatch: dispatch a media key to the system.
                KEY may be: play, pause, play-pause, mute, headsethook,
                stop, next, previous, rewind, record, fast-forword.
`;

function mediaDispatch(ctx: CommandContext, args: string[], usage: string): number {
  const [verb, key] = args;
  if (verb === 'list-sessions') {
    const m = ctx.phone.services.media;
    ctx.out(`Sessions:\n${m.exists ? `  tag=MusicService, package=${m.ownerPackage}\n` : ''}`);
    return 0;
  }
  if (verb !== 'dispatch' || !key) {
    ctx.out(usage);
    ctx.err(`Error: unknown command '${verb ?? ''}'\n`);
    return verb === undefined ? 0 : 255;
  }
  if (!ctx.phone.services.media.dispatch(key)) {
    ctx.out(usage);
    ctx.err(`Error: unknown dispatch code '${key}'\n`);
  }
  return 0;
}

function location(ctx: CommandContext, args: string[]): number {
  const services = ctx.phone.services;
  const [verb, ...rest] = args;
  if (verb === 'is-location-enabled') {
    ctx.out(`${services.locationEnabled}\n`);
    return 0;
  }
  if (verb === 'set-location-enabled' && (rest[0] === 'true' || rest[0] === 'false')) {
    services.locationEnabled = rest[0] === 'true';
    services.settings.secure.set('location_mode', services.locationEnabled ? '3' : '0');
    return 0;
  }
  if (verb === 'providers' && rest[0] === 'add-test-provider') return 0;
  if (verb === 'providers' && rest[0] === 'set-test-provider-location') {
    const provider = rest[1] ?? 'gps';
    const at = rest.indexOf('--location');
    const [lat, lng] = (rest[at + 1] ?? '').split(',').map(Number);
    if (at < 0 || lat === undefined || lng === undefined || !Number.isFinite(lat) || !Number.isFinite(lng)) {
      ctx.err('Error: --location LAT,LNG is required\n');
      return 255;
    }
    const acc = rest.indexOf('--accuracy');
    services.location = {
      provider,
      latitude: lat,
      longitude: lng,
      accuracy: acc >= 0 ? Number(rest[acc + 1]) : 5,
      altitude: services.location.altitude,
      time: ctx.phone.now(),
    };
    return 0;
  }
  ctx.err(`Unknown command: ${verb ?? ''}\n`);
  return 255;
}

function notification(ctx: CommandContext, args: string[]): number {
  if (args[0] !== 'post') {
    ctx.err('usage: cmd notification post [-t TITLE] TAG TEXT\n');
    return 255;
  }
  let title: string | undefined;
  const operands: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-t' || arg === '--title') title = args[++i];
    else if (arg === '-S' || arg === '--style' || arg === '-c' || arg === '--content-intent') i++;
    else if (!arg.startsWith('-')) operands.push(arg);
  }
  const [tag, ...text] = operands;
  if (!tag || text.length === 0) {
    ctx.err('usage: cmd notification post [-t TITLE] TAG TEXT\n');
    return 255;
  }
  ctx.phone.services.postNotification('com.android.shell', 'shell_cmd', title ?? tag, text.join(' '), tag);
  ctx.out('Notification posted\n');
  return 0;
}

type Service = (ctx: CommandContext, args: string[]) => number | Promise<number>;

const noShellCommand: Service = (ctx) => {
  ctx.err(NO_SHELL_COMMAND);
  return 0;
};

function servicesFor(ctx: CommandContext): Record<string, Service> {
  const android = ctx.phone.profile.android;
  return {
    clipboard: noShellCommand,
    media_session: android.mediaSessionShell ? (c, args) => mediaDispatch(c, args, MEDIA_USAGE) : noShellCommand,
    location: android.locationShell ? location : noShellCommand,
    notification,
    package: (c, args) => pm(withArgv(c, ['pm', ...args])),
    activity: (c, args) => am(withArgv(c, ['am', ...args])),
    input: android.inputViaCmd ? (c, args) => input(withArgv(c, ['input', ...args])) : noShellCommand,
    statusbar: () => 0,
  };
}

export const cmd: CommandHandler = (ctx) => {
  const [service, ...args] = ctx.argv.slice(1);
  const services = servicesFor(ctx);
  if (service === '-l') {
    ctx.out(
      `Currently running services:\n${Object.keys(services)
        .map((s) => `  ${s}\n`)
        .join('')}`,
    );
    return 0;
  }
  const run = service && Object.hasOwn(services, service) ? services[service] : undefined;
  if (!run) {
    ctx.err(`cmd: Can't find service: ${service ?? ''}\n`);
    return 20;
  }
  return run(ctx, args);
};

const LEGACY_MEDIA_USAGE = MEDIA_USAGE.replaceAll('media_session', 'media').replace(/\n.*volume.*\n/, '\n');

/** `media dispatch KEY` (cmds/media, Android 9 and older). */
export const media: CommandHandler = (ctx) => mediaDispatch(ctx, ctx.argv.slice(1), LEGACY_MEDIA_USAGE);
