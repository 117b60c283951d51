/**
 * What a device profile is: the shape every profile fills in, and the values several families of
 * phones share (the modern Android shell, Gboard, a built-in screen, uiautomator's idle timeout), so
 * a profile file states only what its family answers differently. FORMATS.md (beside this folder)
 * names the source of each format a field selects.
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

/** Which shell commands exist and in which output format. */
export interface AndroidTraits {
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
}

export interface KeyboardSetup {
  /** The OEM keyboard, selected at start. */
  defaultIme: string;
  imePackage: string;
  adbKeyboard: AdbKeyboardState;
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
  android: AndroidTraits;
  oem: {
    /** Input injection is refused (INJECT_EVENTS) until this is on. */
    inputInjection?: OemSetting;
    /** `pm install` is refused (INSTALL_FAILED_USER_RESTRICTED) until this is on. */
    usbInstall?: OemSetting;
  };
  keyboard: KeyboardSetup;
  dumpFlake: DumpFlake;
  /** Running users (Samsung's Secure Folder is user 150). */
  users: readonly number[];
  /** Typical wall times of a real phone of the family, applied when the device's timeScale is above 0. */
  timing: { uiDumpMs: number; inputStartMs: number; screencapMs: number; idleTimeoutMs: number };
}

/** Android 12 and later: every `cmd` shell present, modern dump layouts, `input` through `cmd input`. */
export const MODERN_ANDROID: Omit<AndroidTraits, 'minTargetSdk'> = {
  mediaSessionShell: true,
  mediaProgram: false,
  playbackStateNames: true,
  resumedLine: 'top',
  locationShell: true,
  dumps: 'modern',
  inputViaCmd: true,
};

const GBOARD = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME';

/** Gboard as the selected keyboard, with ADBKeyboard where the family has it. */
export function gboard(adbKeyboard: AdbKeyboardState): KeyboardSetup {
  return { defaultIme: GBOARD, imePackage: 'com.google.android.inputmethod.latin', adbKeyboard };
}

/** A phone's single built-in screen, as SurfaceFlinger names it (HWC display 0). */
export function builtInScreen(screen: Omit<DisplaySpec, 'hwcId' | 'name'>): DisplaySpec {
  const { physicalId, port, ...size } = screen;
  return { physicalId, hwcId: 0, port, name: 'Built-in Screen', ...size };
}

/** uiautomator's wait for an idle UI before it gives up ("could not get idle state"). */
export const UI_IDLE_TIMEOUT_MS = 10_000;
