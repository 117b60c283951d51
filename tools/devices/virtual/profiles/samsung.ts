/**
 * `samsung`: a Galaxy A54 on One UI 5.1 / Android 13. A 3-button navigation bar (the window is
 * shorter than the display), Secure Folder as user 150 (the multi-user location dump), the Samsung
 * keyboard and no ADBKeyboard, and uiautomator's null root once after a window transition
 * (FORMATS.md).
 */
import { type DeviceProfile, MODERN_ANDROID, UI_IDLE_TIMEOUT_MS, builtInScreen } from './shape';

export const samsung: DeviceProfile = {
  name: 'samsung',
  summary: 'Samsung Galaxy A54 5G, One UI 5.1 (Android 13)',
  model: 'SM-A546B',
  manufacturer: 'samsung',
  brand: 'samsung',
  device: 'a54x',
  product: 'a54xnsxx',
  release: '13',
  sdk: 33,
  buildId: 'TP1A.220624.014',
  incremental: 'A546BXXS6BWK4',
  securityPatch: '2023-11-01',
  extraProps: [
    ['ro.build.version.oneui', '50101'],
    ['ro.product.first_api_level', '33'],
  ],
  serialPrefix: 'R58T',
  displays: [
    builtInScreen({
      physicalId: '4630946474867211650',
      port: 130,
      width: 1080,
      height: 2340,
      density: 450,
      navBarPx: 135,
    }),
  ],
  activeDisplay: 0,
  android: { ...MODERN_ANDROID, minTargetSdk: 0 },
  oem: {},
  keyboard: {
    defaultIme: 'com.samsung.android.honeyboard/.service.HoneyBoardService',
    imePackage: 'com.samsung.android.honeyboard',
    adbKeyboard: 'absent',
  },
  dumpFlake: 'null-root',
  users: [0, 150],
  timing: { uiDumpMs: 1800, inputStartMs: 300, screencapMs: 700, idleTimeoutMs: UI_IDLE_TIMEOUT_MS },
};
