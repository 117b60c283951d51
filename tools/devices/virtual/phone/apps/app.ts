/** What a simulated app is, and what it may ask of the phone. */
import type { LogLevel } from '../logbuffer';
import type { UiNode } from '../ui';
import type { PhoneServices } from '../services';
import type { AppInfo } from '../app-info';

export type { AppInfo } from '../app-info';

export interface AppContext {
  readonly packageName: string;
  /** The fully qualified class of the activity being rendered or acted on. */
  readonly activity: string;
  readonly screen: { width: number; height: number };
  /** Phone-wide state some apps show or change (settings, media, notifications, launcher entries). */
  readonly services: PhoneServices;
  field(id: string): string;
  setField(id: string, text: string): void;
  isFocused(id: string): boolean;
  scroll(id: string): number;
  startActivity(activity: string): void;
  finish(): void;
  /**
   * The app dies: the exception (lines of a stack trace) is logged as a FATAL EXCEPTION, and the phone returns home.
   */
  crash(exception: string): void;
  log(level: LogLevel, tag: string, message: string): void;
}

export interface VirtualApp {
  readonly info: AppInfo;
  /** The nodes of the activity's content, in absolute screen coordinates. */
  render(ctx: AppContext): UiNode[];
  onAction(action: string, ctx: AppContext): void;
  /** `pm clear`: forget everything the app stored. */
  clearData(): void;
}
