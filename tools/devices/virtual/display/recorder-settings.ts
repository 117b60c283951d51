/**
 * How the virtual phone's screen recorder behaves, per phone and mutable (read when it matters).
 * It starts as the profile's Android has it (screenrecord-build.ts: none before 4.4, no
 * `--output-format` on 4.4, H.264 to stdout since 5.0), and a test can make it missing or failing
 * the ways real phones are.
 */
import type { VirtualPhone } from '../phone';

export type RecorderSupport =
  /** Android 5.0+: `--output-format=h264` to stdout works. */
  | 'h264'
  /** No screenrecord binary (before Android 4.4, some OEM and Android Go builds): `not found`, status 127. */
  | 'missing'
  /** Android 4.4's screenrecord, without `--output-format` (getopt's "unrecognized option", status 2). */
  | 'no-h264-output'
  /** The encoder cannot be created (busy, or refused while a secure window shows). */
  | 'encoder-fails';

export interface RecorderSettings {
  support: RecorderSupport;
  /** The display's refresh rate: the most frames a second the phone composes for its recorders. */
  refreshHz: number;
  /** Seconds between key frames in the encoder's output. */
  keyFrameIntervalS: number;
}

/** What the screenrecord of Android at `sdk` can do. */
export function supportAt(sdk: number): RecorderSupport {
  if (sdk < 19) return 'missing';
  return sdk < 21 ? 'no-h264-output' : 'h264';
}

const settings = new WeakMap<VirtualPhone, RecorderSettings>();

export function recorderSettings(phone: VirtualPhone): RecorderSettings {
  let s = settings.get(phone);
  if (!s) {
    s = { support: supportAt(phone.profile.sdk), refreshHz: 60, keyFrameIntervalS: 2 };
    settings.set(phone, s);
  }
  return s;
}
