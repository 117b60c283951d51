/** System properties of the virtual phone (`getprop`), from its profile, model and serial. */
import type { DeviceProfile } from '../profiles';

export interface Identity {
  /** `ro.product.model` as adb lists it (the profile's unless overridden). */
  model: string;
  /** `ro.serialno`: what the phone calls itself, whatever transport adb reaches it by. */
  serialNumber: string;
  profile: DeviceProfile;
}

export function defaultProps(id: Identity): Map<string, string> {
  const p = id.profile;
  const display = p.displays[p.activeDisplay] ?? p.displays[0];
  const build = `${p.release}/${p.buildId}/${p.incremental}`;
  const fingerprint = `${p.brand}/${p.product}/${p.device}:${build}:user/release-keys`;
  const props: [string, string][] = [
    ['ro.product.model', id.model],
    ['ro.product.name', p.product],
    ['ro.product.device', p.device],
    ['ro.product.brand', p.brand],
    ['ro.product.manufacturer', p.manufacturer],
    ['ro.product.board', p.device],
    ['ro.product.cpu.abi', 'arm64-v8a'],
    ['ro.product.cpu.abilist', 'arm64-v8a,armeabi-v7a,armeabi'],
    ['ro.product.locale', 'en-US'],
    ['ro.build.version.release', p.release],
    ['ro.build.version.sdk', String(p.sdk)],
    ['ro.build.version.security_patch', p.securityPatch],
    ['ro.build.version.incremental', p.incremental],
    ['ro.build.id', p.buildId],
    ['ro.build.display.id', `${p.buildId} release-keys`],
    ['ro.build.type', 'user'],
    ['ro.build.tags', 'release-keys'],
    ['ro.build.fingerprint', fingerprint],
    ['ro.serialno', id.serialNumber],
    ['ro.boot.serialno', id.serialNumber],
    ['ro.debuggable', '0'],
    ['ro.secure', '1'],
    ['ro.sf.lcd_density', String(display?.density ?? 420)],
    ['ro.hardware', p.device],
    ['ro.kernel.qemu', '0'],
    ['persist.sys.timezone', 'UTC'],
    ['persist.sys.locale', 'en-US'],
    ['sys.boot_completed', '1'],
    ['dev.bootcomplete', '1'],
    ['init.svc.adbd', 'running'],
    ['service.adb.tcp.port', '5555'],
    ['gsm.operator.alpha', 'Virtual Mobile'],
    ['gsm.sim.state', 'READY'],
    ['net.hostname', `android-${p.device}`],
    ['wifi.interface', 'wlan0'],
    ...p.extraProps.map(([k, v]) => [k, v] as [string, string]),
  ];
  return new Map(props.sort(([a], [b]) => a.localeCompare(b)));
}
