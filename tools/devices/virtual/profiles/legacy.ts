/**
 * `legacy`: a moto g(6) play on Android 9 (SDK 28), the old shell. No `cmd media_session`,
 * `cmd location` or `cmd input` (Binder's default answer); the `media` program; `mResumedActivity:`;
 * numeric playback states; `userId=` and package-block install times; `input` as an app_process
 * program (a 0.8 s VM start); ADBKeyboard selected (FORMATS.md).
 */
import { type DeviceProfile, UI_IDLE_TIMEOUT_MS, builtInScreen, gboard } from './shape';

export const legacy: DeviceProfile = {
  name: 'legacy',
  summary: 'moto g(6) play, Android 9',
  model: 'moto g(6) play',
  manufacturer: 'motorola',
  brand: 'motorola',
  device: 'jeter',
  product: 'jeter_retail',
  release: '9',
  sdk: 28,
  buildId: 'PPPS29.118-57-3',
  incremental: 'a8ab3',
  securityPatch: '2020-03-01',
  extraProps: [],
  serialPrefix: 'ZY32',
  displays: [builtInScreen({ physicalId: '0', port: 0, width: 720, height: 1440, density: 320, navBarPx: 96 })],
  activeDisplay: 0,
  android: {
    mediaSessionShell: false,
    mediaProgram: true,
    playbackStateNames: false,
    resumedLine: 'm',
    locationShell: false,
    dumps: 'legacy',
    inputViaCmd: false,
    minTargetSdk: 0,
  },
  oem: {},
  keyboard: gboard('selected'),
  dumpFlake: 'none',
  users: [0],
  timing: { uiDumpMs: 2800, inputStartMs: 800, screencapMs: 900, idleTimeoutMs: UI_IDLE_TIMEOUT_MS },
};
