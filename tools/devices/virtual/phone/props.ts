/** System properties of the virtual phone (`getprop`), derived from its model and name. */

export interface Identity {
  model: string;
  name: string;
  serial: string;
  screen: { width: number; height: number; density: number };
}

export function defaultProps(id: Identity): Map<string, string> {
  const props: [string, string][] = [
    ['ro.product.model', id.model],
    ['ro.product.name', id.name],
    ['ro.product.device', id.name],
    ['ro.product.brand', 'toolgate'],
    ['ro.product.manufacturer', 'Toolgate'],
    ['ro.product.board', 'virtual'],
    ['ro.product.cpu.abi', 'x86_64'],
    ['ro.product.cpu.abilist', 'x86_64,arm64-v8a'],
    ['ro.product.locale', 'en-US'],
    ['ro.build.version.release', '13'],
    ['ro.build.version.sdk', '33'],
    ['ro.build.version.security_patch', '2024-05-05'],
    ['ro.build.id', 'TQ3A.230805.001'],
    ['ro.build.display.id', 'TQ3A.230805.001 release-keys'],
    ['ro.build.type', 'user'],
    ['ro.build.tags', 'release-keys'],
    ['ro.build.fingerprint', `toolgate/${id.name}/${id.name}:13/TQ3A.230805.001/1:user/release-keys`],
    ['ro.serialno', id.serial],
    ['ro.boot.serialno', id.serial],
    ['ro.debuggable', '0'],
    ['ro.secure', '1'],
    ['ro.sf.lcd_density', String(id.screen.density)],
    ['ro.hardware', 'virtual'],
    ['ro.kernel.qemu', '0'],
    ['persist.sys.timezone', 'UTC'],
    ['persist.sys.locale', 'en-US'],
    ['sys.boot_completed', '1'],
    ['dev.bootcomplete', '1'],
    ['init.svc.adbd', 'running'],
    ['service.adb.tcp.port', '5555'],
    ['gsm.operator.alpha', 'Virtual Mobile'],
    ['gsm.sim.state', 'READY'],
    ['net.hostname', `android-${id.name}`],
    ['wifi.interface', 'wlan0'],
  ];
  return new Map(props.sort(([a], [b]) => a.localeCompare(b)));
}
