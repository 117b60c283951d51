/**
 * The simulated phone: packages, a task stack, focus and keyboard, and the phone-wide services.
 * Everything the shell commands read or change lives here, so tests can inspect it directly.
 * Input (taps, swipes, keys) is in phone/input.ts; app screens are in phone/apps/.
 */
import type { AppContext, VirtualApp } from './phone/apps/app';
import { createAdbKeyboard, createInstalledApp } from './phone/apps/installed';
import { LAUNCHER_PACKAGE, createLauncher } from './phone/apps/launcher';
import { createMusicApp } from './phone/apps/music';
import { createNotesApp } from './phone/apps/notes';
import { createSettingsApp } from './phone/apps/settings';
import { createShopApp } from './phone/apps/shop';
import { VirtualFs } from './phone/filesystem';
import { LogBuffer, type LogLevel } from './phone/logbuffer';
import { PackageRegistry, shortComponent, type PackageRecord } from './phone/packages';
import { defaultProps } from './phone/props';
import { PhoneServices } from './phone/services';
import { hierarchyXml, rect, type UiNode } from './phone/ui';

export interface PhoneOptions {
  model: string;
  name: string;
  serial: string;
  /** The clock, in ms since the epoch (injectable for deterministic tests). */
  now?: () => number;
}

interface Task {
  packageName: string;
  activities: string[];
}

export interface Focus {
  packageName: string;
  activity: string;
  fieldId: string;
}

export const SYSTEM_PID = 612;
const DAY = 86_400_000;

export class VirtualPhone {
  readonly screen = { width: 720, height: 1280, density: 320 };
  readonly now: () => number;
  readonly bootTime: number;
  readonly fs: VirtualFs;
  readonly log: LogBuffer;
  readonly props: Map<string, string>;
  readonly services: PhoneServices;
  /** `reboot` requests received (the phone does not actually restart). */
  readonly rebootRequests: string[] = [];
  awake = true;
  keyboardShown = false;
  focus: Focus | null = null;
  private readonly packages = new PackageRegistry();
  private tasks: Task[] = [];
  private readonly fields = new Map<string, string>();
  private readonly scrolls = new Map<string, number>();
  private readonly pids = new Map<string, number>();
  private nextPid = 3100;

  constructor(options: PhoneOptions) {
    this.now = options.now ?? Date.now;
    this.bootTime = this.now() - 3_600_000;
    this.fs = new VirtualFs(() => Math.floor(this.now() / 1000));
    this.log = new LogBuffer(this.now);
    this.props = defaultProps({ ...options, screen: this.screen });
    this.services = new PhoneServices(this.props, this.now, () => this.packages.launchable());
    const preinstalled = [
      createLauncher(),
      createSettingsApp(),
      createMusicApp(),
      createNotesApp(),
      createShopApp(),
      createAdbKeyboard(),
    ];
    for (const app of preinstalled)
      this.packages.register(app, app.info.system ? '/system/app' : '/data/app', this.bootTime - 30 * DAY);
    this.fs.seed('/storage/emulated/0/Download/welcome.txt', 'Welcome to the Toolgate virtual phone.\n');
    this.fs.seed('/system/build.prop', `${[...this.props].map(([k, v]) => `${k}=${v}`).join('\n')}\n`);
    this.tasks = [{ packageName: LAUNCHER_PACKAGE, activities: [`${LAUNCHER_PACKAGE}.Launcher`] }];
    this.spawn(LAUNCHER_PACKAGE);
    this.log.add('I', 'SystemServer', 'Entered the Android system server!', SYSTEM_PID);
    this.log.add('I', 'ActivityManager', 'System now ready', SYSTEM_PID);
    this.log.add('I', 'WifiService', 'Wi-Fi connected to "VirtualNet"', SYSTEM_PID);
  }

  // ── packages ───────────────────────────────────────────────────────────

  listPackages(): PackageRecord[] {
    return this.packages.list();
  }

  getPackage(name: string): PackageRecord | undefined {
    return this.packages.get(name);
  }

  /** `pm install`: returns the line pm prints (`Success` or `Failure [CODE: …]`). */
  installApk(path: string, replace: boolean): string {
    const data = this.fs.read(path);
    if (typeof data === 'string') return `Failure [INSTALL_FAILED_INVALID_URI: ${path}: ${data}]`;
    const info = this.packages.check(path, data, replace);
    if (typeof info === 'string') return info;
    this.forceStop(info.packageName);
    this.packages.put(createInstalledApp(info), this.now());
    this.log.add(
      'I',
      'PackageManager',
      `Package ${info.packageName} installed (versionName=${info.versionName})`,
      SYSTEM_PID,
    );
    return 'Success';
  }

  /** `pm uninstall`: system apps and unknown packages cannot be removed. */
  uninstall(name: string): boolean {
    const record = this.packages.get(name);
    if (!record || record.info.system) return false;
    this.clearData(name);
    this.packages.remove(name);
    this.log.add('I', 'PackageManager', `Package ${name} removed`, SYSTEM_PID);
    return true;
  }

  /** `pm clear`: stops the app and forgets its data. */
  clearData(name: string): boolean {
    const record = this.packages.get(name);
    if (!record) return false;
    this.forceStop(name);
    record.app.clearData();
    this.clearAppState(name);
    this.services.cancelNotifications(name);
    return true;
  }

  // ── processes and activities ───────────────────────────────────────────

  pidOf(name: string): number | undefined {
    return this.pids.get(name);
  }

  runningProcesses(): [string, number][] {
    return [...this.pids];
  }

  /** The resumed activity: the top of the front task. */
  foreground(): { packageName: string; activity: string } {
    const task = this.tasks[this.tasks.length - 1];
    const activity = task?.activities[task.activities.length - 1];
    if (!task || !activity) return { packageName: LAUNCHER_PACKAGE, activity: `${LAUNCHER_PACKAGE}.Launcher` };
    return { packageName: task.packageName, activity };
  }

  foregroundComponent(): string {
    const fg = this.foreground();
    return shortComponent(fg.packageName, fg.activity);
  }

  /**
   * `am start -n`: brings the package's task to front and starts the activity in it (an activity
   * already in the task is returned to, clearing those above it). Returns an error or null.
   */
  startActivity(packageName: string, activity?: string): string | null {
    const record = this.packages.get(packageName);
    const target = activity ?? record?.info.activities[0];
    if (!record || !target || !record.info.activities.includes(target)) {
      return `Activity class {${packageName}/${target ?? ''}} does not exist.`;
    }
    this.log.add(
      'I',
      'ActivityTaskManager',
      `START u0 {cmp=${shortComponent(packageName, target)}} from uid 2000`,
      SYSTEM_PID,
    );
    this.spawn(packageName);
    let task = this.tasks.find((t) => t.packageName === packageName);
    if (!task) task = { packageName, activities: [] };
    this.tasks = [...this.tasks.filter((t) => t !== task), task];
    const at = task.activities.indexOf(target);
    if (at >= 0) task.activities.splice(at + 1);
    else task.activities.push(target);
    this.onNavigation();
    this.log.add('I', 'ActivityTaskManager', `Displayed ${shortComponent(packageName, target)}: +180ms`, SYSTEM_PID);
    return null;
  }

  /** Launcher icon or `monkey -p PKG -c …LAUNCHER 1`: resumes the app's task, or starts it. */
  launchApp(packageName: string): boolean {
    const record = this.packages.get(packageName);
    if (!record?.info.launchable || record.info.activities.length === 0) return false;
    const task = this.tasks.find((t) => t.packageName === packageName);
    if (task && task.activities.length > 0) {
      this.tasks = [...this.tasks.filter((t) => t !== task), task];
      this.onNavigation();
      return true;
    }
    return this.startActivity(packageName) === null;
  }

  forceStop(packageName: string): void {
    const pid = this.pids.get(packageName);
    if (pid === undefined || packageName === LAUNCHER_PACKAGE) return;
    this.log.add(
      'I',
      'ActivityManager',
      `Force stopping ${packageName} appid=${this.packages.get(packageName)?.uid ?? 0} user=0: from pid 2000`,
      SYSTEM_PID,
    );
    this.log.add(
      'I',
      'ActivityManager',
      `Killing ${pid}:${packageName}/u0a${(this.packages.get(packageName)?.uid ?? 10000) - 10000} (adj 0): stop ${packageName}`,
      SYSTEM_PID,
    );
    this.pids.delete(packageName);
    this.clearAppState(packageName);
    this.removeTask(packageName);
  }

  goHome(): void {
    const home = this.tasks.find((t) => t.packageName === LAUNCHER_PACKAGE);
    if (home) this.tasks = [...this.tasks.filter((t) => t !== home), home];
    this.onNavigation();
  }

  /** BACK: hides the keyboard first; otherwise finishes the top activity. */
  back(): void {
    if (this.keyboardShown) {
      this.keyboardShown = false;
      return;
    }
    const fg = this.foreground();
    if (fg.packageName !== LAUNCHER_PACKAGE) this.finish(fg.packageName);
  }

  finish(packageName: string): void {
    const task = this.tasks.find((t) => t.packageName === packageName);
    if (!task) return;
    task.activities.pop();
    if (task.activities.length === 0) this.removeTask(packageName);
    else this.onNavigation();
  }

  crash(packageName: string, exception: string): void {
    const pid = this.pids.get(packageName) ?? 0;
    this.log.add('E', 'AndroidRuntime', 'FATAL EXCEPTION: main', pid);
    this.log.add('E', 'AndroidRuntime', `Process: ${packageName}, PID: ${pid}`, pid);
    for (const line of exception.split('\n')) this.log.add('E', 'AndroidRuntime', line, pid);
    this.log.add('I', 'Process', `Sending signal. PID: ${pid} SIG: 9`, pid);
    this.pids.delete(packageName);
    this.clearAppState(packageName);
    this.removeTask(packageName);
  }

  // ── app state seen through the UI ───────────────────────────────────────

  fieldText(packageName: string, fieldId: string): string {
    return this.fields.get(`${packageName}|${fieldId}`) ?? '';
  }

  setFieldText(packageName: string, fieldId: string, text: string): void {
    this.fields.set(`${packageName}|${fieldId}`, text);
  }

  scrollOffset(packageName: string, listId: string): number {
    return this.scrolls.get(`${packageName}|${listId}`) ?? 0;
  }

  setScrollOffset(packageName: string, listId: string, offset: number): void {
    this.scrolls.set(`${packageName}|${listId}`, offset);
  }

  appFor(packageName: string): VirtualApp | undefined {
    return this.packages.get(packageName)?.app;
  }

  /** The context an app renders and acts in. */
  contextFor(packageName: string, activity: string): AppContext {
    return {
      packageName,
      activity,
      screen: this.screen,
      services: this.services,
      field: (id) => this.fieldText(packageName, id),
      setField: (id, text) => this.setFieldText(packageName, id, text),
      isFocused: (id) =>
        this.focus?.packageName === packageName && this.focus.activity === activity && this.focus.fieldId === id,
      scroll: (id) => this.scrollOffset(packageName, id),
      startActivity: (target) => void this.startActivity(packageName, target),
      finish: () => this.finish(packageName),
      crash: (exception) => this.crash(packageName, exception),
      log: (level: LogLevel, tag, message) =>
        this.log.add(level, tag, message, this.pids.get(packageName) ?? SYSTEM_PID),
    };
  }

  /** The view tree of the foreground window, as uiautomator sees it. */
  hierarchy(): UiNode {
    const fg = this.foreground();
    const app = this.appFor(fg.packageName);
    const children = app ? app.render(this.contextFor(fg.packageName, fg.activity)) : [];
    return {
      className: 'android.widget.FrameLayout',
      packageName: fg.packageName,
      bounds: rect(0, 0, this.screen.width, this.screen.height),
      children,
    };
  }

  hierarchyXml(): string {
    return hierarchyXml(this.hierarchy());
  }

  // ── internals ───────────────────────────────────────────────────────────

  private spawn(packageName: string): void {
    if (this.pids.has(packageName)) return;
    const pid = this.nextPid++;
    this.pids.set(packageName, pid);
    this.log.add(
      'I',
      'ActivityManager',
      `Start proc ${pid}:${packageName}/u0a${(this.packages.get(packageName)?.uid ?? 10000) - 10000} for top-activity`,
      SYSTEM_PID,
    );
  }

  private removeTask(packageName: string): void {
    const wasFront = this.foreground().packageName === packageName;
    this.tasks = this.tasks.filter((t) => t.packageName !== packageName);
    if (wasFront) this.goHome();
  }

  /** Forgets what only lived in the app's process: field drafts and scroll positions. */
  private clearAppState(packageName: string): void {
    for (const map of [this.fields, this.scrolls]) {
      for (const key of [...map.keys()]) if (key.startsWith(`${packageName}|`)) map.delete(key);
    }
  }

  /** A different activity is in front: focus and keyboard go away. */
  private onNavigation(): void {
    const fg = this.foreground();
    if (this.focus && (this.focus.packageName !== fg.packageName || this.focus.activity !== fg.activity)) {
      this.focus = null;
      this.keyboardShown = false;
    }
  }
}
