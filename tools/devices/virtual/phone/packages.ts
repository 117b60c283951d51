/**
 * Installed packages and the APK naming convention of the virtual phone.
 *
 * Any file is accepted as an APK. Its package comes from, in order:
 *  1. a text manifest anywhere in the file: lines `package=com.acme.todo` and optionally
 *     `versionName=2.0`, `versionCode=20`, `label=Todo`, `activity=.MainActivity`, `targetSdk=22`
 *     (34 when absent; Android 14+ refuses old targets, see pm.ts);
 *  2. the file name, when it is a Java package name: `com.acme.todo.apk` or `com.acme.todo-2.0.apk`
 *     (adbkit's install(path) pushes under the original base name; install(stream) and the adb
 *     CLI's streamed install carry no usable name, so those need the manifest line).
 * Otherwise `pm install` fails with INSTALL_FAILED_INVALID_APK.
 */
import { posix } from 'node:path';
import type { AppInfo, VirtualApp } from './apps/app';
import { appCodePath } from './code-path';

export interface PackageRecord {
  info: AppInfo;
  app: VirtualApp;
  uid: number;
  /** The directory of the APK; the APK is `${codePath}/base.apk` (phone/code-path.ts). */
  codePath: string;
  /** The users it is installed for; `pm uninstall --user N` takes one away. */
  users: Set<number>;
  /** Milliseconds since the epoch. */
  firstInstallTime: number;
  lastUpdateTime: number;
  installer: string | null;
}

const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;

function manifestValue(text: string, key: string): string | undefined {
  return new RegExp(`^${key}=([^\\r\\n\\0]+)$`, 'm').exec(text)?.[1]?.trim();
}

export function parseApk(path: string, data: Buffer): AppInfo | string {
  const text = data.toString('latin1');
  const fromManifest = manifestValue(text, 'package');
  const base = posix.basename(path).replace(/\.apk$/i, '');
  const fromName = base.replace(/-[0-9][^-]*$/, '');
  const packageName = fromManifest ?? (PACKAGE_NAME.test(fromName) ? fromName : undefined);
  if (!packageName || !PACKAGE_NAME.test(packageName)) {
    return (
      `INSTALL_FAILED_INVALID_APK: Failed to parse ${path}: no ` +
      'package name (add a line package=NAME or name the file NAME.apk)'
    );
  }
  const versionFromName = /-([0-9][^-]*)$/.exec(base)?.[1];
  const activity = manifestValue(text, 'activity') ?? '.MainActivity';
  const last = packageName.split('.').pop() ?? packageName;
  return {
    packageName,
    label: manifestValue(text, 'label') ?? last.charAt(0).toUpperCase() + last.slice(1),
    system: false,
    versionName: manifestValue(text, 'versionName') ?? versionFromName ?? '1.0',
    versionCode: Number(manifestValue(text, 'versionCode') ?? '1') || 1,
    targetSdk: Number(manifestValue(text, 'targetSdk') ?? '34') || 34,
    activities: [activity.startsWith('.') ? `${packageName}${activity}` : activity],
    launchable: true,
  };
}

/** `com.x/.Main` for activities inside the package, `com.x/org.y.Main` otherwise. */
export function shortComponent(packageName: string, activity: string): string {
  return activity.startsWith(`${packageName}.`)
    ? `${packageName}/${activity.slice(packageName.length)}`
    : `${packageName}/${activity}`;
}

/** Resolves `PKG/.Act` or `PKG/full.Act` to [package, fully qualified activity]. */
export function parseComponent(component: string): [string, string] | null {
  const slash = component.indexOf('/');
  if (slash <= 0) return null;
  const pkg = component.slice(0, slash);
  const act = component.slice(slash + 1);
  if (!act) return null;
  return [pkg, act.startsWith('.') ? `${pkg}${act}` : act];
}

/**
 * The installed packages and their install records. Process and UI effects stay with the phone.
 * `get` and `list` answer for user 0, the user every shell command here acts for (pm's default
 * `UserHandle.USER_SYSTEM`); a package removed for user 0 alone stays in `find`.
 */
export class PackageRegistry {
  private readonly records = new Map<string, PackageRecord>();
  private nextUid = 10120;
  /** Installs so far: each gives a new code directory (phone/code-path.ts). */
  private installs = 0;

  constructor(
    private readonly sdk = 35,
    private readonly users: readonly number[] = [0],
  ) {}

  /** Installed for user 0; with `uninstalled`, also those kept for other users (`pm list packages -u`). */
  list(opts: { uninstalled?: boolean } = {}): PackageRecord[] {
    return [...this.records.values()]
      .filter((r) => opts.uninstalled || r.users.has(0))
      .sort((a, b) => a.info.packageName.localeCompare(b.info.packageName));
  }

  get(name: string): PackageRecord | undefined {
    const record = this.records.get(name);
    return record?.users.has(0) ? record : undefined;
  }

  /** The record whichever users have it. */
  find(name: string): PackageRecord | undefined {
    return this.records.get(name);
  }

  register(app: VirtualApp, codeRoot: string, installedAt: number, installer: string | null = null): void {
    const name = app.info.packageName;
    this.records.set(name, {
      info: app.info,
      app,
      uid: app.info.system ? 1000 : this.nextUid++,
      codePath: app.info.system ? `${codeRoot}/${name}-1` : appCodePath(codeRoot, name, this.sdk, ++this.installs),
      users: new Set(this.users),
      firstInstallTime: installedAt,
      lastUpdateTime: installedAt,
      installer,
    });
  }

  remove(name: string): void {
    this.records.delete(name);
  }

  /** `pm uninstall --user N`: false when N does not have it; the record goes with its last user unless a system app. */
  removeForUser(name: string, user: number): boolean {
    const record = this.records.get(name);
    if (!record?.users.delete(user)) return false;
    if (record.users.size === 0 && !record.info.system) this.records.delete(name);
    return true;
  }

  /**
   * Checks an APK against what is installed: the parsed app info, or pm's failure line.
   * `replace` is `pm install -r`; system apps are never replaced.
   */
  check(path: string, data: Buffer, replace: boolean): AppInfo | string {
    const info = parseApk(path, data);
    if (typeof info === 'string') return `Failure [${info}]`;
    const existing = this.records.get(info.packageName);
    if (existing?.info.system)
      return `Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Package ${info.packageName} is a system app]`;
    if (existing && !replace)
      return (
        'Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to ' +
        `re-install ${info.packageName} without first uninstalling.]`
      );
    return info;
  }

  /** Installs or updates a checked app. */
  put(app: VirtualApp, now: number): void {
    const existing = this.records.get(app.info.packageName);
    if (!existing) {
      this.register(app, '/data/app', now, 'adb');
      return;
    }
    existing.info = app.info;
    existing.app = app;
    existing.lastUpdateTime = now;
    // An update is written to a new code directory (PackageManagerService getNextCodePath) for every user.
    existing.codePath = appCodePath('/data/app', app.info.packageName, this.sdk, ++this.installs);
    for (const user of this.users) existing.users.add(user);
  }

  launchable(): AppInfo[] {
    return this.list()
      .map((p) => p.info)
      .filter((i) => i.launchable && i.activities.length > 0)
      .sort((a, b) => a.label.localeCompare(b.label));
  }
}
