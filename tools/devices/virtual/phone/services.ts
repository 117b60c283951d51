/** Phone-wide state outside any one app: settings, properties, clipboard, media, notifications, location. */
import type { AppInfo } from './app-info';

export type SettingsNamespace = 'system' | 'secure' | 'global';
export const SETTINGS_NAMESPACES: readonly SettingsNamespace[] = ['system', 'secure', 'global'];

export interface MediaTrack {
  title: string;
  artist: string;
  album: string;
  durationMs: number;
}

export type MediaState = 'playing' | 'paused' | 'stopped';

/** PlaybackState numbers as `dumpsys media_session` prints them. */
export const PLAYBACK_STATE_CODES: Record<MediaState, number> = { stopped: 1, paused: 2, playing: 3 };

/**
 * The Music app's media session. It exists while the app's process runs (the app creates it on
 * start, and it dies with the process), as `dumpsys media_session` lists sessions.
 */
export class MediaSession {
  readonly ownerPackage = 'com.android.music';
  /** The owner's pid while the session exists; undefined when no app has a session. */
  ownerPid: number | undefined;
  state: MediaState = 'paused';
  index = 0;
  readonly tracks: MediaTrack[] = [
    { title: 'Morning Light', artist: 'The Virtuals', album: 'Emulated Skies', durationMs: 214_000 },
    { title: 'Packet Loss', artist: 'The Virtuals', album: 'Emulated Skies', durationMs: 187_000 },
    { title: 'Handshake', artist: 'CNXN', album: 'Transport Layer', durationMs: 241_000 },
  ];

  get exists(): boolean {
    return this.ownerPid !== undefined;
  }

  open(pid: number): void {
    this.ownerPid = pid;
  }

  close(): void {
    this.ownerPid = undefined;
    this.state = 'paused';
  }

  current(): MediaTrack {
    return this.tracks[this.index] ?? (this.tracks[0] as MediaTrack);
  }

  /**
   * Applies a transport control (`cmd media_session dispatch …`); false when the name is unknown.
   * Without a session the key reaches nobody (Android would hand it to the last media button
   * receiver; this phone has none).
   */
  dispatch(command: string): boolean {
    if (!['play', 'pause', 'play-pause', 'stop', 'next', 'previous'].includes(command)) return false;
    if (!this.exists) return true;
    switch (command) {
      case 'play':
        this.state = 'playing';
        return true;
      case 'pause':
        this.state = 'paused';
        return true;
      case 'play-pause':
        this.state = this.state === 'playing' ? 'paused' : 'playing';
        return true;
      case 'stop':
        this.state = 'stopped';
        return true;
      case 'next':
        this.index = (this.index + 1) % this.tracks.length;
        return true;
      case 'previous':
        this.index = (this.index + this.tracks.length - 1) % this.tracks.length;
        return true;
      default:
        return false;
    }
  }
}

export interface PhoneNotification {
  id: number;
  tag: string | null;
  packageName: string;
  channel: string;
  title: string;
  text: string;
  /** Milliseconds since the epoch. */
  postTime: number;
}

export interface PhoneLocation {
  provider: string;
  latitude: number;
  longitude: number;
  accuracy: number;
  altitude: number;
  /** Milliseconds since the epoch. */
  time: number;
}

export class PhoneServices {
  readonly settings: Record<SettingsNamespace, Map<string, string>>;
  clipboard = '';
  readonly media = new MediaSession();
  readonly notifications: PhoneNotification[] = [];
  location: PhoneLocation;
  locationEnabled = true;
  private nextNotificationId = 100;

  constructor(
    readonly props: Map<string, string>,
    private readonly now: () => number,
    /** The apps the launcher shows, in order. */
    readonly launchable: () => AppInfo[],
    keyboard: { defaultIme: string; enabled: string },
  ) {
    this.settings = {
      system: new Map([
        ['screen_brightness', '128'],
        ['screen_off_timeout', '60000'],
        ['font_scale', '1.0'],
        ['accelerometer_rotation', '1'],
        ['volume_music', '8'],
      ]),
      secure: new Map([
        ['android_id', '9774d56d682e549c'],
        ['default_input_method', keyboard.defaultIme],
        ['enabled_input_methods', keyboard.enabled],
        ['show_ime_with_hard_keyboard', '0'],
        ['location_mode', '3'],
        ['bluetooth_name', 'Toolgate Virtual'],
      ]),
      global: new Map([
        ['adb_enabled', '1'],
        ['airplane_mode_on', '0'],
        ['wifi_on', '1'],
        ['bluetooth_on', '0'],
        ['auto_time', '1'],
        ['development_settings_enabled', '1'],
        ['stay_on_while_plugged_in', '0'],
        ['window_animation_scale', '1.0'],
        ['transition_animation_scale', '1.0'],
        ['animator_duration_scale', '1.0'],
        ['device_name', 'Toolgate Virtual'],
      ]),
    };
    const t = now();
    this.location = { provider: 'fused', latitude: 48.8584, longitude: 2.2945, accuracy: 12, altitude: 35, time: t };
    this.postNotification('com.android.settings', 'system', 'USB debugging connected', 'Tap to turn off USB debugging');
    this.postNotification('com.example.shop', 'orders', 'Order shipped', 'Your order #1042 is on its way');
    this.postNotification('com.example.notes', 'reminders', 'Reminder', 'Buy milk');
  }

  setting(namespace: SettingsNamespace, key: string): string | undefined {
    return this.settings[namespace].get(key);
  }

  postNotification(
    packageName: string,
    channel: string,
    title: string,
    text: string,
    tag: string | null = null,
  ): PhoneNotification {
    const n: PhoneNotification = {
      id: this.nextNotificationId++,
      tag,
      packageName,
      channel,
      title,
      text,
      postTime: this.now(),
    };
    this.notifications.push(n);
    return n;
  }

  cancelNotifications(packageName: string): void {
    for (let i = this.notifications.length - 1; i >= 0; i--) {
      if (this.notifications[i]?.packageName === packageName) this.notifications.splice(i, 1);
    }
  }
}
