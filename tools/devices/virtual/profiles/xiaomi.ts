/**
 * `xiaomi`: a Redmi Note 13 Pro 5G on HyperOS 1 / Android 14. Input injection (INJECT_EVENTS) is
 * withheld until "USB debugging (Security settings)" is on and installs are refused until "Install
 * via USB" is (both system properties only the Settings app sets), ADBKeyboard is installed but not
 * enabled, and uiautomator says "could not get idle state" once after a transition (FORMATS.md).
 */
import { type DeviceProfile, MODERN_ANDROID, UI_IDLE_TIMEOUT_MS, builtInScreen, gboard } from './shape';

export const xiaomi: DeviceProfile = {
  name: 'xiaomi',
  summary: 'Redmi Note 13 Pro 5G, HyperOS 1 (Android 14)',
  model: '23090RA98G',
  manufacturer: 'Xiaomi',
  brand: 'Redmi',
  device: 'garnet',
  product: 'garnet_global',
  release: '14',
  sdk: 34,
  buildId: 'UKQ1.231003.002',
  incremental: 'OS1.0.6.0.UNRMIXM',
  securityPatch: '2024-03-01',
  extraProps: [
    ['ro.mi.os.version.name', 'OS1.0'],
    ['ro.miui.ui.version.name', 'V816'],
    ['ro.miui.ui.version.code', '816'],
    ['persist.security.adbinput', '0'],
    ['persist.security.adbinstall', '0'],
  ],
  serialPrefix: 'a7c',
  displays: [
    builtInScreen({
      physicalId: '4630946841474662785',
      port: 129,
      width: 1220,
      height: 2712,
      density: 446,
      navBarPx: 0,
    }),
  ],
  activeDisplay: 0,
  android: { ...MODERN_ANDROID, minTargetSdk: 23 },
  oem: {
    inputInjection: {
      prop: 'persist.security.adbinput',
      where: 'Settings > Additional settings > Developer options > "USB debugging (Security settings)"',
    },
    usbInstall: {
      prop: 'persist.security.adbinstall',
      where: 'Settings > Additional settings > Developer options > "Install via USB"',
    },
  },
  keyboard: gboard('installed'),
  dumpFlake: 'idle-state',
  users: [0],
  timing: { uiDumpMs: 2200, inputStartMs: 300, screencapMs: 800, idleTimeoutMs: UI_IDLE_TIMEOUT_MS },
};
