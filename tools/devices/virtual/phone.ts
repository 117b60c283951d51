/**
 * The simulated phone: packages, a task stack, focus and keyboard, and the phone-wide services,
 * answering as its profile's family of phones does (profiles/). Everything the shell commands
 * read or change lives here, so tests can inspect it directly. Input (taps, swipes, keys) is in
 * phone/input.ts; app screens are in phone/apps/; the display layout in phone/layout.ts.
 */
import type { AppContext, VirtualApp } from './phone/apps/app';
import { createAdbKeyboard } from './phone/apps/installed';
import { AppState } from './phone/app-state';
import { type PhoneConditions, PhoneHardware, keyboardSettings, serialNumberFor } from './phone/hardware';
import { SYSTEM_UI, keyguardTree } from './phone/keyguard';
import { type ScreenLayout, scaleNode } from './phone/layout';
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
import { ADB_KEYBOARD_IME, type DeviceProfile, type DisplaySpec, type ProfileName, profileOf } from './profiles';

export type { PhoneConditions } from './phone/hardware';

export interface PhoneOptions {
  /** The serial adb lists (`127.0.0.1:PORT`); `ro.serialno` is the phone's own. */
  serial: string;
  /** Which family of phones it answers as (default `pixel`). */
  profile?: ProfileName | DeviceProfile;
  /** `ro.product.model`; the profile's by default. */
  model?: string;
  /** `ro.serialno`; derived from the profile and the serial by default. */
  serialNumber?: string;
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
  readonly profile: DeviceProfile;
  readonly hardware: PhoneHardware;
  /** A window transition happened since the last dump (some profiles' uiautomator fails once then). */
  transitionPending = false;
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
  /** The installed packages (installs and removals: phone/package-ops.ts). */
  readonly packages: PackageRegistry;
  private tasks: Task[] = [];
  private readonly appState = new AppState();
  private readonly pids = new Map<string, number>();
  private nextPid = 3100;

  constructor(options: PhoneOptions) {
    this.profile = profileOf(options.profile);
    this.packages = new PackageRegistry(this.profile.sdk, this.profile.users);
    this.now = options.now ?? Date.now;
    this.bootTime = this.now() - 3_600_000;
    this.fs = new VirtualFs(() => Math.floor(this.now() / 1000));
    this.log = new LogBuffer(this.now);
    this.props = defaultProps({
      model: options.model ?? this.profile.model,
      serialNumber: options.serialNumber ?? serialNumberFor(this.profile, options.serial),
      profile: this.profile,
    });
    this.hardware = new PhoneHardware(this.profile, this.props);
    this.services = new PhoneServices(
      this.props,
      this.now,
      () => this.packages.launchable(),
      keyboardSettings(this.profile),
    );
    const preinstalled = [createLauncher(), createSettingsApp(), createMusicApp(), createNotesApp(), createShopApp()];
    if (this.profile.keyboard.adbKeyboard !== 'absent') preinstalled.push(createAdbKeyboard());
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

  // ── the device: displays, conditions, OEM settings (phone/hardware.ts) ──

  get conditions(): PhoneConditions {
    return this.hardware.conditions;
  }

  /** The built-in display that is on. */
  get display(): DisplaySpec {
    return this.hardware.display;
  }

  /** Pixels and scale of the active display (apps lay out in 720-wide units, phone/layout.ts). */
  get layout(): ScreenLayout {
    return this.hardware.layout;
  }

  get screen(): { width: number; height: number; density: number } {
    const { width, height, density } = this.display;
    return { width, height, density };
  }

  /** Folds or unfolds a foldable: the outer display goes on when folded. */
  setFolded(folded: boolean): void {
    if (this.profile.displays.length < 2) return;
    this.hardware.activeDisplay = folded ? 1 : 0;
    this.onNavigation();
  }

  /** The input methods installed, by id (`ime list -a -s`). */
  inputMethods(): string[] {
    const ids = [this.profile.keyboard.defaultIme];
    if (this.getPackage('com.android.adbkeyboard')) ids.push(ADB_KEYBOARD_IME);
    return ids;
  }

  /** The foreground activity shows a FLAG_SECURE window: screenshots of it come out black. */
  secureWindowShown(): boolean {
    if (this.conditions.locked) return false;
    const fg = this.foreground();
    return this.getPackage(fg.packageName)?.info.secureActivities?.includes(fg.activity) ?? false;
  }

  // ── packages ───────────────────────────────────────────────────────────

  listPackages(): PackageRecord[] {
    return this.packages.list();
  }

  getPackage(name: string): PackageRecord | undefined {
    return this.packages.get(name);
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
      `Killing ${pid}:${packageName}/u0a${(this.packages.get(packageName)?.uid ?? 10000) - 10000} ` +
        `(adj 0): stop ${packageName}`,
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
    return this.appState.field(packageName, fieldId);
  }

  setFieldText(packageName: string, fieldId: string, text: string): void {
    this.appState.setField(packageName, fieldId, text);
  }

  scrollOffset(packageName: string, listId: string): number {
    return this.appState.scroll(packageName, listId);
  }

  setScrollOffset(packageName: string, listId: string, offset: number): void {
    this.appState.setScroll(packageName, listId, offset);
  }

  appFor(packageName: string): VirtualApp | undefined {
    return this.packages.get(packageName)?.app;
  }

  /** The context an app renders and acts in (in layout units). */
  contextFor(packageName: string, activity: string): AppContext {
    return {
      packageName,
      activity,
      screen: this.layout.appScreen,
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

  /**
   * The view tree of the active window in display pixels, as uiautomator sees it: the app's window
   * above the navigation bar, or the keyguard while the phone is locked.
   */
  hierarchy(): UiNode {
    const layout = this.layout;
    if (this.conditions.locked) {
      const clock = new Date(this.now()).toISOString().slice(11, 16);
      return keyguardTree(layout.width, layout.height, clock, this.conditions.lockSecure);
    }
    const fg = this.foreground();
    const app = this.appFor(fg.packageName);
    const children = app ? app.render(this.contextFor(fg.packageName, fg.activity)) : [];
    return {
      className: 'android.widget.FrameLayout',
      packageName: fg.packageName,
      bounds: rect(0, 0, layout.width, layout.contentHeight),
      children: children.map((c) => scaleNode(c, layout.scale)),
    };
  }

  /** The package of the window that has focus: the keyguard's System UI while locked. */
  focusedPackage(): string {
    return this.conditions.locked ? SYSTEM_UI : this.foreground().packageName;
  }

  /** Swipe up on an insecure keyguard: the phone unlocks. */
  dismissKeyguard(): void {
    if (!this.conditions.locked || this.conditions.lockSecure) return;
    this.conditions.locked = false;
    this.onNavigation();
  }

  hierarchyXml(): string {
    return hierarchyXml(this.hierarchy());
  }

  // ── internals ───────────────────────────────────────────────────────────

  private spawn(packageName: string): void {
    if (this.pids.has(packageName)) return;
    const pid = this.nextPid++;
    this.pids.set(packageName, pid);
    if (packageName === this.services.media.ownerPackage) this.services.media.open(pid);
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

  /** Forgets what only lived in the app's process: field drafts, scroll positions, its media session. */
  clearAppState(packageName: string): void {
    if (packageName === this.services.media.ownerPackage) this.services.media.close();
    this.appState.forget(packageName);
  }

  /** A different activity is in front: focus and keyboard go away, and a window transition runs. */
  private onNavigation(): void {
    this.transitionPending = true;
    const fg = this.foreground();
    if (this.focus && (this.focus.packageName !== fg.packageName || this.focus.activity !== fg.activity)) {
      this.focus = null;
      this.keyboardShown = false;
    }
  }
}
