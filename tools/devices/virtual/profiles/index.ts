/**
 * Device profiles: which family of real phones the virtual phone answers as. A profile fixes the
 * build (getprop), the displays, which shell commands exist and in which output format
 * (FORMATS.md names the source of each), the keyboards, the OEM restrictions and the typical
 * timings. One file per profile; the shape and the shared values are in shape.ts. `pixel` is the
 * default.
 */
import { foldable } from './foldable';
import { legacy } from './legacy';
import { pixel } from './pixel';
import { samsung } from './samsung';
import { type DeviceProfile, PROFILE_NAMES, type ProfileName } from './shape';
import { xiaomi } from './xiaomi';

export {
  type AdbKeyboardState,
  type AndroidTraits,
  type DeviceProfile,
  type DisplaySpec,
  type DumpFlake,
  type KeyboardSetup,
  type OemSetting,
  PROFILE_NAMES,
  type ProfileName,
} from './shape';

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
