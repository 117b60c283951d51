/**
 * What `pm install`, `pm uninstall` and `pm clear` do to the phone, and the lines pm prints.
 * MIUI/HyperOS refuse shell installs until "Install via USB" is on; Android 14+ refuses APKs that
 * target an old SDK unless `--bypass-low-target-sdk-block` is given (FORMATS.md).
 */
import type { VirtualPhone } from '../phone';
import { SYSTEM_PID } from '../phone';
import { createInstalledApp } from './apps/installed';

/** `pm install`: the line pm prints (`Success` or `Failure [CODE: …]`). */
export function installApk(
  phone: VirtualPhone,
  path: string,
  replace: boolean,
  opts: { bypassLowTargetSdk?: boolean } = {},
): string {
  const data = phone.fs.read(path);
  if (typeof data === 'string') return `Failure [INSTALL_FAILED_INVALID_URI: ${path}: ${data}]`;
  if (!phone.hardware.usbInstallAllowed()) return 'Failure [INSTALL_FAILED_USER_RESTRICTED: Install canceled by user]';
  const info = phone.packages.check(path, data, replace);
  if (typeof info === 'string') return info;
  const min = phone.profile.android.minTargetSdk;
  if (min > 0 && (info.targetSdk ?? 34) < min && !opts.bypassLowTargetSdk)
    return (
      `Failure [INSTALL_FAILED_DEPRECATED_SDK_VERSION: App package must target at least SDK version ${min}, ` +
      `but found ${info.targetSdk}]`
    );
  phone.forceStop(info.packageName);
  phone.packages.put(createInstalledApp(info), phone.now());
  phone.log.add(
    'I',
    'PackageManager',
    `Package ${info.packageName} installed (versionName=${info.versionName})`,
    SYSTEM_PID,
  );
  return 'Success';
}

/** `pm uninstall`: system apps and unknown packages cannot be removed. */
export function uninstall(phone: VirtualPhone, name: string): boolean {
  const record = phone.packages.get(name);
  if (!record || record.info.system) return false;
  clearData(phone, name);
  phone.packages.remove(name);
  phone.log.add('I', 'PackageManager', `Package ${name} removed`, SYSTEM_PID);
  return true;
}

/** `pm clear`: stops the app and forgets its data. */
export function clearData(phone: VirtualPhone, name: string): boolean {
  const record = phone.packages.get(name);
  if (!record) return false;
  phone.forceStop(name);
  record.app.clearData();
  phone.clearAppState(name);
  phone.services.cancelNotifications(name);
  return true;
}
