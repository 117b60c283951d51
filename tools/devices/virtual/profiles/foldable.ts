/**
 * `foldable`: a Pixel Fold on Android 14, unfolded. Two physical displays: screencap's warning
 * without `-d`, `dumpsys SurfaceFlinger --display-id`, viewports with `isActive`; the phone's
 * `setFolded()` switches the display that is on. The display ids are those of a Pixel Fold
 * emulator's `dumpsys SurfaceFlinger --display-id` (FORMATS.md).
 */
import { type DeviceProfile, MODERN_ANDROID, UI_IDLE_TIMEOUT_MS, gboard } from './shape';

export const foldable: DeviceProfile = {
  name: 'foldable',
  summary: 'Google Pixel Fold, Android 14, unfolded',
  model: 'Pixel Fold',
  manufacturer: 'Google',
  brand: 'google',
  device: 'felix',
  product: 'felix',
  release: '14',
  sdk: 34,
  buildId: 'AP2A.240805.005',
  incremental: '12025142',
  securityPatch: '2024-08-05',
  extraProps: [['ro.soc.model', 'Tensor G2']],
  serialPrefix: '2B1',
  displays: [
    {
      physicalId: '4619827259835644672',
      hwcId: 0,
      port: 0,
      name: 'Inner Display',
      width: 2208,
      height: 1840,
      density: 420,
      navBarPx: 0,
    },
    {
      physicalId: '4619827551948147201',
      hwcId: 1,
      port: 1,
      name: 'Outer Display',
      width: 1080,
      height: 2092,
      density: 420,
      navBarPx: 0,
    },
  ],
  activeDisplay: 0,
  android: { ...MODERN_ANDROID, minTargetSdk: 23 },
  oem: {},
  keyboard: gboard('absent'),
  dumpFlake: 'none',
  users: [0],
  timing: { uiDumpMs: 1500, inputStartMs: 250, screencapMs: 1100, idleTimeoutMs: UI_IDLE_TIMEOUT_MS },
};
