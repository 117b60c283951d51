/**
 * `dumpsys SERVICE [ARGS]`: the services tools read, in the wording of the profile's Android. An
 * unknown service prints "Can't find service: NAME" with status 0, as dumpsys does.
 */
import type { VirtualPhone } from '../../phone';
import type { CommandHandler } from '../types';
import { activities, windowDump } from './activity';
import { battery, deviceIdle, display, input, inputMethod, power, surfaceFlinger } from './device';
import { packageDump } from './package';
import { location, mediaSession, notifications } from './services';

const SERVICES: Record<string, (phone: VirtualPhone, args: string[]) => string> = {
  activity: (phone) => activities(phone),
  window: windowDump,
  input_method: inputMethod,
  input,
  power,
  package: packageDump,
  media_session: mediaSession,
  location,
  notification: notifications,
  battery,
  deviceidle: deviceIdle,
  display,
  SurfaceFlinger: surfaceFlinger,
};

export const dumpsys: CommandHandler = ({ argv, phone, out, err }) => {
  const [service, ...args] = argv.slice(1);
  if (service === undefined || service === '-l') {
    out(
      `Currently running services:\n${Object.keys(SERVICES)
        .map((s) => `  ${s}\n`)
        .join('')}`,
    );
    return 0;
  }
  const dump = Object.hasOwn(SERVICES, service) ? SERVICES[service] : undefined;
  if (!dump) {
    err(`Can't find service: ${service}\n`);
    return 0;
  }
  out(dump(phone, args));
  return 0;
};
