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

/**
 * `pm uninstall [--user N]`: the line pm prints. AOSP `PackageManagerShellCommand.runUninstall`:
 * without `--user` (USER_ALL, DELETE_ALL_USERS) a system app or an unknown package fails
 * (DeletePackageHelper "Not removing non-existent package", DELETE_FAILED_INTERNAL_ERROR); with it,
 * `getPackageInfo(pkg, …, user) == null` prints "Failure [not installed for N]", and a system app is
 * removed for that user only (DELETE_SYSTEM_APP: "Success", the app stays for the others).
 */
export function uninstall(phone: VirtualPhone, name: string, user?: number): string {
  const record = phone.packages.find(name);
  if (user !== undefined) {
    if (!record?.users.has(user)) return `Failure [not installed for ${user}]`;
    if (user === 0) clearData(phone, name);
    phone.packages.removeForUser(name, user);
    phone.log.add('I', 'PackageManager', `Package ${name} removed for user ${user}`, SYSTEM_PID);
    return 'Success';
  }
  if (!record || record.info.system) return 'Failure [DELETE_FAILED_INTERNAL_ERROR]';
  clearData(phone, name);
  phone.packages.remove(name);
  phone.log.add('I', 'PackageManager', `Package ${name} removed`, SYSTEM_PID);
  return 'Success';
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
