/**
 * How the virtual phone's screen recorder behaves, per phone and mutable (read when it matters), so
 * a test can make screenrecord missing or failing the ways real phones do, or shorten its limit.
 */
import type { VirtualPhone } from '../phone';

export type RecorderSupport =
  /** Android 10+: `--output-format=h264` to stdout works. */
  | 'h264'
  /** No screenrecord binary (some OEM and Android Go builds): `not found`, status 127. */
  | 'missing'
  /** Android 4.4-9: screenrecord without `--output-format` (getopt's "unrecognized option", usage, status 2). */
  | 'no-h264-output'
  /** The encoder cannot be created (busy, or refused while a secure window shows): status 1. */
  | 'encoder-fails';

export interface RecorderSettings {
  support: RecorderSupport;
  /** The longest `--time-limit` accepted, and the default (180 s on Android 4.4-13). */
  maxTimeLimitS: number;
  /** The display's refresh rate: the most frames a second the phone composes for its recorders. */
  refreshHz: number;
  /** Seconds between key frames in the encoder's output. */
  keyFrameIntervalS: number;
}

const settings = new WeakMap<VirtualPhone, RecorderSettings>();

export function recorderSettings(phone: VirtualPhone): RecorderSettings {
  let s = settings.get(phone);
  if (!s) {
    s = { support: 'h264', maxTimeLimitS: 180, refreshHz: 60, keyFrameIntervalS: 2 };
    settings.set(phone, s);
  }
  return s;
}
