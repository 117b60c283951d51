/**
 * Device profiles: which family of real phones the virtual phone answers as. A profile fixes the
 * build (getprop), the displays, which shell commands exist and in which output format
 * (FORMATS.md names the source of each), the keyboards, the OEM restrictions and the typical
 * timings. `pixel` is the default.
 */

export const PROFILE_NAMES = ['pixel', 'samsung', 'xiaomi', 'legacy', 'foldable'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface DisplaySpec {
  /** SurfaceFlinger's physical display id (`dumpsys SurfaceFlinger --display-id`, `screencap -d`). */
  physicalId: string;
  hwcId: number;
  port: number;
  name: string;
  width: number;
  height: number;
  density: number;
  /** Height of a 3-button navigation bar at the bottom; 0 with gesture navigation. */
  navBarPx: number;
}

/** Where ADBKeyboard (com.android.adbkeyboard/.AdbIME) stands on the phone. */
export type AdbKeyboardState = 'absent' | 'installed' | 'enabled' | 'selected';

/** A one-off uiautomator failure right after the screen changed (a window transition). */
export type DumpFlake = 'none' | 'null-root' | 'idle-state';

export interface OemSetting {
  /** The system property the OEM's Settings app sets (the shell cannot set it). */
  prop: string;
  /** Where a person turns it on. */
  where: string;
}

export interface DeviceProfile {
  name: ProfileName;
  summary: string;
  model: string;
  manufacturer: string;
  brand: string;
  device: string;
  product: string;
  release: string;
  sdk: number;
  buildId: string;
  incremental: string;
  securityPatch: string;
  extraProps: readonly (readonly [string, string])[];
  /** `ro.serialno` starts with this; the rest comes from the port, so two virtual phones differ. */
  serialPrefix: string;
  /** The built-in displays; the first is the one SurfaceFlinger lists first. */
  displays: readonly DisplaySpec[];
  /** The built-in display that is on at start. */
  activeDisplay: number;
  android: {
    /** `cmd media_session` (MediaShellCommand, Android 10+); older phones answer with Binder's default. */
    mediaSessionShell: boolean;
    /** The `media` program (cmds/media, removed in Android 10). */
    mediaProgram: boolean;
    /** PlaybackState.toString prints `PLAYING(3)` (newer) or `3` (older). */
    playbackStateNames: boolean;
    /** `dumpsys activity activities` names the resumed activity `topResumedActivity=` or `mResumedActivity:`. */
    resumedLine: 'top' | 'm';
    /** `cmd location` (LocationShellCommand, Android 11+). */
    locationShell: boolean;
    /** Layout of `dumpsys location`, `dumpsys package` and friends: Android 12+ or Android 8–9. */
    dumps: 'modern' | 'legacy';
    /** `input` runs inside system_server through `cmd input` (exceptions as "Exception occurred while executing"). */
    inputViaCmd: boolean;
    /** Installs of APKs targeting a lower SDK fail (Android 14: 23, Android 15: 24); 0 = no block. */
    minTargetSdk: number;
  };
  oem: {
    /** Input injection is refused (INJECT_EVENTS) until this is on. */
    inputInjection?: OemSetting;
    /** `pm install` is refused (INSTALL_FAILED_USER_RESTRICTED) until this is on. */
    usbInstall?: OemSetting;
  };
  keyboard: {
    /** The OEM keyboard, selected at start. */
    defaultIme: string;
    imePackage: string;
    adbKeyboard: AdbKeyboardState;
  };
  dumpFlake: DumpFlake;
  /** Running users (Samsung's Secure Folder is user 150). */
  users: readonly number[];
  /** Typical wall times of a real phone of the family, applied when the device's timeScale is above 0. */
  timing: { uiDumpMs: number; inputStartMs: number; screencapMs: number; idleTimeoutMs: number };
}

const GBOARD = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME';

const pixel: DeviceProfile = {
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
    {
      physicalId: '4619827259835644672',
      hwcId: 0,
      port: 0,
      name: 'Built-in Screen',
      width: 1080,
      height: 2400,
      density: 420,
      navBarPx: 0,
    },
  ],
  activeDisplay: 0,
  android: {
    mediaSessionShell: true,
    mediaProgram: false,
    playbackStateNames: true,
    resumedLine: 'top',
    locationShell: true,
    dumps: 'modern',
    inputViaCmd: true,
    minTargetSdk: 24,
  },
  oem: {},
  keyboard: { defaultIme: GBOARD, imePackage: 'com.google.android.inputmethod.latin', adbKeyboard: 'enabled' },
  dumpFlake: 'none',
  users: [0],
  timing: { uiDumpMs: 1200, inputStartMs: 250, screencapMs: 500, idleTimeoutMs: 10_000 },
};

const samsung: DeviceProfile = {
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
    {
      physicalId: '4630946474867211650',
      hwcId: 0,
      port: 130,
      name: 'Built-in Screen',
      width: 1080,
      height: 2340,
      density: 450,
      navBarPx: 135,
    },
  ],
  activeDisplay: 0,
  android: {
    mediaSessionShell: true,
    mediaProgram: false,
    playbackStateNames: true,
    resumedLine: 'top',
    locationShell: true,
    dumps: 'modern',
    inputViaCmd: true,
    minTargetSdk: 0,
  },
  oem: {},
  keyboard: {
    defaultIme: 'com.samsung.android.honeyboard/.service.HoneyBoardService',
    imePackage: 'com.samsung.android.honeyboard',
    adbKeyboard: 'absent',
  },
  dumpFlake: 'null-root',
  users: [0, 150],
  timing: { uiDumpMs: 1800, inputStartMs: 300, screencapMs: 700, idleTimeoutMs: 10_000 },
};

const xiaomi: DeviceProfile = {
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
    {
      physicalId: '4630946841474662785',
      hwcId: 0,
      port: 129,
      name: 'Built-in Screen',
      width: 1220,
      height: 2712,
      density: 446,
      navBarPx: 0,
    },
  ],
  activeDisplay: 0,
  android: {
    mediaSessionShell: true,
    mediaProgram: false,
    playbackStateNames: true,
    resumedLine: 'top',
    locationShell: true,
    dumps: 'modern',
    inputViaCmd: true,
    minTargetSdk: 23,
  },
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
  keyboard: { defaultIme: GBOARD, imePackage: 'com.google.android.inputmethod.latin', adbKeyboard: 'installed' },
  dumpFlake: 'idle-state',
  users: [0],
  timing: { uiDumpMs: 2200, inputStartMs: 300, screencapMs: 800, idleTimeoutMs: 10_000 },
};

const legacy: DeviceProfile = {
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
  displays: [
    {
      physicalId: '0',
      hwcId: 0,
      port: 0,
      name: 'Built-in Screen',
      width: 720,
      height: 1440,
      density: 320,
      navBarPx: 96,
    },
  ],
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
  keyboard: { defaultIme: GBOARD, imePackage: 'com.google.android.inputmethod.latin', adbKeyboard: 'selected' },
  dumpFlake: 'none',
  users: [0],
  timing: { uiDumpMs: 2800, inputStartMs: 800, screencapMs: 900, idleTimeoutMs: 10_000 },
};

const foldable: DeviceProfile = {
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
  android: {
    mediaSessionShell: true,
    mediaProgram: false,
    playbackStateNames: true,
    resumedLine: 'top',
    locationShell: true,
    dumps: 'modern',
    inputViaCmd: true,
    minTargetSdk: 23,
  },
  oem: {},
  keyboard: { defaultIme: GBOARD, imePackage: 'com.google.android.inputmethod.latin', adbKeyboard: 'absent' },
  dumpFlake: 'none',
  users: [0],
  timing: { uiDumpMs: 1500, inputStartMs: 250, screencapMs: 1100, idleTimeoutMs: 10_000 },
};

export const PROFILES: Readonly<Record<ProfileName, DeviceProfile>> = { pixel, samsung, xiaomi, legacy, foldable };

export const DEFAULT_PROFILE: ProfileName = 'pixel';

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}

export function profileOf(name: ProfileName | DeviceProfile | undefined): DeviceProfile {
  if (name === undefined) return PROFILES[DEFAULT_PROFILE];
  return typeof name === 'string' ? PROFILES[name] : name;
}

/** The profile with its display that is on resized (`serve --screen WxH`); the same profile without a size. */
export function withScreen(
  profile: DeviceProfile,
  screen: { width: number; height: number } | undefined,
): DeviceProfile {
  if (!screen) return profile;
  const displays = profile.displays.map((d, i) => (i === profile.activeDisplay ? { ...d, ...screen } : d));
  return { ...profile, displays };
}

export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME';
