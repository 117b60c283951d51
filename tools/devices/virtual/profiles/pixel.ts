/**
 * `pixel`, the default: a Pixel 8 on Android 15 (SDK 35). `topResumedActivity=`, `PLAYING(3)`,
 * Android 15's install block (target SDK below 24), ADBKeyboard installed and enabled, Gboard
 * selected. Build ids and the serial prefix are modelled on real devices; the display id is
 * invented in SurfaceFlinger's encoding (FORMATS.md).
 */
import { type DeviceProfile, MODERN_ANDROID, UI_IDLE_TIMEOUT_MS, builtInScreen, gboard } from './shape';

export const pixel: DeviceProfile = {
  name: 'pixel',
  summary: 'Google Pixel 8, Android 15',
  model: 'Pixel 8',
  manufacturer: 'Google',
  brand: 'google',
  device: 'shiba',
  product: 'shiba',
  release: '15',
  sdk: 35,
  buildId: 'AP4A.250105.002',
  incremental: '12701944',
  securityPatch: '2025-01-05',
  extraProps: [['ro.soc.model', 'Tensor G3']],
  serialPrefix: '3A0',
  displays: [
    builtInScreen({ physicalId: '4619827259835644672', port: 0, width: 1080, height: 2400, density: 420, navBarPx: 0 }),
  ],
  activeDisplay: 0,
  android: { ...MODERN_ANDROID, minTargetSdk: 24 },
  oem: {},
  keyboard: gboard('enabled'),
  dumpFlake: 'none',
  users: [0],
  timing: { uiDumpMs: 1200, inputStartMs: 250, screencapMs: 500, idleTimeoutMs: UI_IDLE_TIMEOUT_MS },
};
