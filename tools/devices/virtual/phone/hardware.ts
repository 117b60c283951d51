/**
 * The phone as a device of its family: the profile, the displays and which one is on, the states
 * a real phone can be in (locked, a hardware keyboard, an animating screen), and the OEM security
 * settings that gate input injection and USB installs.
 */
import { ADB_KEYBOARD_IME, type DeviceProfile, type DisplaySpec } from '../profiles';
import { BatteryState } from './battery';
import { DeviceIdleState } from './device-idle';
import { type ScreenLayout, screenLayout } from './layout';

/** States of a real phone a test (or a person at the demo) puts it in. */
export interface PhoneConditions {
  /** The keyguard is showing. */
  locked: boolean;
  /** The lock needs a PIN (a swipe does not dismiss it). */
  lockSecure: boolean;
  /** A hardware keyboard is attached: a focused field shows no soft keyboard. */
  hardwareKeyboard: boolean;
  /** The next N `uiautomator dump`s find the screen animating ("could not get idle state"). */
  idleStateFailures: number;
  /** The next N dumps find no active window ("null root node returned by UiTestAutomationBridge"). */
  nullRootFailures: number;
}

export class PhoneHardware {
  readonly conditions: PhoneConditions = {
    locked: false,
    lockSecure: false,
    hardwareKeyboard: false,
    idleStateFailures: 0,
    nullRootFailures: 0,
  };
  /** The battery and charger as `dumpsys battery` reports and changes them. */
  readonly battery = new BatteryState();
  /** Doze, as `dumpsys deviceidle` reports and forces it. */
  readonly deviceIdle = new DeviceIdleState();
  /** Index of the built-in display that is on (a folded foldable shows its outer display). */
  activeDisplay: number;

  constructor(
    readonly profile: DeviceProfile,
    private readonly props: Map<string, string>,
  ) {
    this.activeDisplay = profile.activeDisplay;
  }

  get display(): DisplaySpec {
    return this.profile.displays[this.activeDisplay] ?? (this.profile.displays[0] as DisplaySpec);
  }

  get layout(): ScreenLayout {
    return screenLayout(this.display);
  }

  /** Input injection is allowed (OEM builds refuse it until their security setting is on). */
  injectionAllowed(): boolean {
    const setting = this.profile.oem.inputInjection;
    return !setting || this.props.get(setting.prop) === '1';
  }

  /** `pm install` from the shell is allowed (MIUI/HyperOS refuse it until "Install via USB" is on). */
  usbInstallAllowed(): boolean {
    const setting = this.profile.oem.usbInstall;
    return !setting || this.props.get(setting.prop) === '1';
  }
}

/** The keyboard settings a profile's phone starts with (`settings get secure default_input_method`). */
export function keyboardSettings(profile: DeviceProfile): { defaultIme: string; enabled: string } {
  const k = profile.keyboard;
  const enabled = k.adbKeyboard === 'enabled' || k.adbKeyboard === 'selected';
  return {
    defaultIme: k.adbKeyboard === 'selected' ? ADB_KEYBOARD_IME : k.defaultIme,
    enabled: enabled ? `${k.defaultIme}:${ADB_KEYBOARD_IME}` : k.defaultIme,
  };
}

/** `ro.serialno` of a profile's phone: its prefix and a part from the adb serial, so two phones differ. */
export function serialNumberFor(profile: DeviceProfile, serial: string): string {
  let h = 0x811c9dc5;
  for (const ch of serial) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  const tail = h.toString(16).toUpperCase().padStart(8, '0');
  return `${profile.serialPrefix}${profile.name === 'xiaomi' ? tail.toLowerCase() : tail}`;
}
