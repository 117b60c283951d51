/**
 * The virtual Android device: speaks the device side of the ADB transport over TCP, so the real
 * adb server accepts it with `adb connect 127.0.0.1:PORT`, and runs a simulated phone behind it.
 * Tests use it for every device test; `toolgate serve --virtual-device` uses it as the demo phone.
 */
import { BoundedLog, COMMAND_LOG_LIMIT } from './bounded-log';
import { DeviceShell } from './device-shell';
import type { FaultSettings } from './faults';
import { VirtualPhone } from './phone';
import { SYSTEM_PID } from './phone';
import { type DeviceProfile, type ProfileName, profileOf, withScreen } from './profiles';
import { resolveService } from './services/resolve';
import type { ShellServiceDeps } from './services/shell-service';
import { TransportServer } from './transport-server';
import { LINK_PRESETS, type LinkPreset, type LinkSettings } from './link-throttle';

export type { FaultSettings } from './faults';
export { VirtualPhone } from './phone';
export {
  type DeviceProfile,
  DEFAULT_PROFILE,
  PROFILE_NAMES,
  PROFILES,
  type ProfileName,
  isProfileName,
} from './profiles';
export { adbState, runAdb, startAdbServer, waitForAdbState } from './adb-cli';
export { connectToAdb, disconnectFromAdb } from './adb-link';
export { parseScript, ShellSyntaxError } from './sh/parse';
export { LINK_PRESETS, type LinkPreset, type LinkSettings, isLinkPreset } from './link-throttle';
export { type RecorderSettings, type RecorderSupport, recorderSettings } from './display/recorder-settings';

export interface VirtualDeviceOptions {
  /** TCP port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** The family of phones it answers as (profiles/); `pixel` by default. */
  profile?: ProfileName | DeviceProfile;
  /** `ro.product.model`, shown by `adb devices -l`; the profile's by default. */
  model?: string;
  /**
   * How much of a real phone's time its commands take (`uiautomator dump` 1–3 s, `input` 0.25–0.8 s,
   * `screencap` 0.5–1 s, per profile): 0 (the default) answers at once, 1 as slowly as a phone.
   */
  timeScale?: number;
  /** The phone's clock in ms since the epoch (default Date.now), for deterministic logs and dates. */
  now?: () => number;
  /** The size in pixels of the profile's display that is on, instead of the profile's (`serve --screen WxH`). */
  screen?: { width: number; height: number };
  /** The cable's throughput and latency (default: loopback, unthrottled). */
  link?: LinkPreset | LinkSettings;
}

export interface VirtualDevice {
  readonly port: number;
  /** `127.0.0.1:PORT`, the serial adb lists. */
  readonly serial: string;
  /** The simulated phone, inspectable by tests. */
  readonly phone: VirtualPhone;
  /** Every shell/exec command line received, raw, in order (the newest 20,000). */
  readonly commandLog: readonly string[];
  /** Every simple command the device shell ran or tried to run, as argv after parsing (the newest 20,000). */
  readonly executedCommands: readonly string[][];
  /** Mutable fault settings, read at the moment each fault applies. */
  faults: FaultSettings;
  /** The cable's throughput and latency, mutable (link-throttle.ts). */
  link: LinkSettings;
  /** Drops every open socket now; adb then shows the device offline. The port keeps listening. */
  unplug(): void;
  /**
   * Drops every open socket and closes new connections at once until the returned release is
   * called: the cable held out. Unlike the `refuseConnections` fault it belongs to the caller that
   * took it (disconnectFromAdb holds it while adb forgets the device).
   */
  holdUnplugged(): () => void;
  close(): Promise<void>;
}

/** The features a phone with adb 29-era adbd announces (minus the ones this device lacks). */
const FEATURES = 'shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb_exec,fixed_push_symlink_timestamp';

export async function startVirtualDevice(opts: VirtualDeviceOptions = {}): Promise<VirtualDevice> {
  const profile = withScreen(profileOf(opts.profile), opts.screen);
  const model = opts.model ?? profile.model;
  const commandLog: string[] = new BoundedLog<string>(COMMAND_LOG_LIMIT);
  const executedCommands: string[][] = new BoundedLog<string[]>(COMMAND_LOG_LIMIT);
  let phone: VirtualPhone | undefined;
  let deps: ShellServiceDeps | undefined;

  const server: TransportServer = new TransportServer({
    banner: () =>
      `device::ro.product.name=${profile.product};ro.product.model=${model};` +
      `ro.product.device=${profile.device};features=${FEATURES}`,
    faults: () => device.faults,
    resolveService: (service) => (phone && deps ? resolveService(service, phone, deps) : null),
    onRefused: (service, reason) => phone?.log.add('W', 'adbd', `refused service '${service}': ${reason}`, SYSTEM_PID),
    link: () => device.link,
  });
  const port = await server.listen(opts.port ?? 0);
  const serial = `127.0.0.1:${port}`;
  const createdPhone = new VirtualPhone({ model, serial, profile, ...(opts.now ? { now: opts.now } : {}) });
  phone = createdPhone;
  const shell = new DeviceShell(createdPhone, executedCommands, opts.timeScale ?? 0, () => device.faults);
  deps = { shell, commandLog, faults: () => device.faults, unplug: () => server.dropAll() };

  const device: VirtualDevice = {
    port,
    serial,
    phone: createdPhone,
    commandLog,
    executedCommands,
    faults: {},
    link: { ...(typeof opts.link === 'string' ? LINK_PRESETS[opts.link] : opts.link) },
    unplug: () => server.dropAll(),
    holdUnplugged: () => server.hold(),
    close: () => server.close(),
  };
  return device;
}
