/**
 * `cmd SERVICE …`, plus the `media` shorthand.
 *
 * Clipboard (Android has no standard shell command for it; this phone offers one):
 *   `cmd clipboard get` prints the text; `cmd clipboard set TEXT…` sets it (arguments joined by spaces).
 * Media: `cmd media_session dispatch play|pause|play-pause|next|previous|stop` (also `media dispatch …`).
 * Location: `cmd location is-location-enabled`, `cmd location set-location-enabled true|false`,
 *   `cmd location providers set-test-provider-location PROVIDER --location LAT,LNG [--accuracy M]`.
 * Notifications: `cmd notification post [-t TITLE] TAG TEXT`.
 */
import { am } from './am';
import { input } from './input';
import { pm } from './pm';
import type { CommandContext, CommandHandler } from './types';

function withArgv(ctx: CommandContext, argv: string[]): CommandContext {
  return { ...ctx, argv };
}

function mediaDispatch(ctx: CommandContext, args: string[]): number {
  const [verb, key] = args;
  if (verb !== 'dispatch' || !key || !ctx.phone.services.media.dispatch(key)) {
    ctx.err('usage: media_session dispatch play|pause|play-pause|next|previous|stop\n');
    return 1;
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
      return 1;
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
  ctx.err(
    'usage: cmd location is-location-enabled | set-location-enabled true|false | providers set-test-provider-location PROVIDER --location LAT,LNG\n',
  );
  return 1;
}

function notification(ctx: CommandContext, args: string[]): number {
  if (args[0] !== 'post') {
    ctx.err('usage: cmd notification post [-t TITLE] TAG TEXT\n');
    return 1;
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
    return 1;
  }
  ctx.phone.services.postNotification('com.android.shell', 'shell_cmd', title ?? tag, text.join(' '), tag);
  ctx.out('Notification posted\n');
  return 0;
}

const CMD_SERVICES: Record<string, (ctx: CommandContext, args: string[]) => number | Promise<number>> = {
  clipboard(ctx, [verb, ...text]) {
    if (verb === 'get') {
      ctx.out(`${ctx.phone.services.clipboard}\n`);
      return 0;
    }
    if (verb === 'set') {
      ctx.phone.services.clipboard = text.join(' ');
      return 0;
    }
    ctx.err('usage: cmd clipboard get | set TEXT\n');
    return 1;
  },
  media_session: mediaDispatch,
  location,
  notification,
  package: (ctx, args) => pm(withArgv(ctx, ['pm', ...args])),
  activity: (ctx, args) => am(withArgv(ctx, ['am', ...args])),
  input: (ctx, args) => input(withArgv(ctx, ['input', ...args])),
  statusbar: () => 0,
};

export const cmd: CommandHandler = (ctx) => {
  const [service, ...args] = ctx.argv.slice(1);
  if (service === '-l') {
    ctx.out(
      `Currently running services:\n${Object.keys(CMD_SERVICES)
        .map((s) => `  ${s}\n`)
        .join('')}`,
    );
    return 0;
  }
  const run = service ? CMD_SERVICES[service] : undefined;
  if (!run) {
    ctx.err(`cmd: Can't find service: ${service ?? ''}\n`);
    return 20;
  }
  return run(ctx, args);
};

export const media: CommandHandler = (ctx) => mediaDispatch(ctx, ctx.argv.slice(1));
