/**
 * What the screenrecord of a phone's Android takes and says, by the build's SDK level, from
 * frameworks/av cmds/screenrecord/screenrecord.cpp as tagged for each release (FORMATS.md names the
 * commits): Android 4.4 records mp4 files only (no `--output-format`, bit rate in plain bits);
 * Android 5.0 (v1.2) adds `--output-format=h264` to `-` (stdout) and "4M"-style bit rates; 8.1
 * raises the default bit rate to 20 Mbit/s; 10 adds webm, 3gpp and `--bframes`; 11 (v1.3)
 * `--display-id`; 14 lets `--time-limit 0` record without a limit and sizes the default video to
 * cover every display (foldables).
 */

export interface ScreenrecordBuild {
  /** `Android screenrecord vX.Y.` in the usage text; absent on Android 4.4. */
  version?: string;
  /** The `--output-format` values; absent: no such option (Android 4.4 records mp4 only). */
  formats?: readonly string[];
  /** The long options getopt_long knows, and whether each takes a value. */
  options: ReadonlyMap<string, boolean>;
  /** `--bit-rate 4M` (parseValueWithUnit); false: atoi, plain bits. */
  bitRateUnits: boolean;
  defaultBitRate: number;
  /** Android 14+: `--time-limit 0` is no limit, any 32-bit count of seconds is taken. */
  unboundedTimeLimit: boolean;
  /** Android 14+: the default video covers the largest display, not the one recorded. */
  sizeCoversAllDisplays: boolean;
}

/** kMaxTimeLimitSec: the default limit on every version, and the most one may ask for before Android 14. */
export const MAX_TIME_LIMIT_S = 180;
export const MIN_BIT_RATE = 100_000;
/** kMaxBitRate: 100 Mbit/s on Android 4.4, 200 Mbit/s since. */
export function maxBitRate(sdk: number): number {
  return sdk >= 21 ? 200_000_000 : 100_000_000;
}

const KITKAT_OPTIONS: [string, boolean][] = [
  ['help', false],
  ['verbose', false],
  ['size', true],
  ['bit-rate', true],
  ['time-limit', true],
  ['rotate', false],
];
const LOLLIPOP_OPTIONS: [string, boolean][] = [
  ...KITKAT_OPTIONS,
  ['bugreport', false],
  ['show-device-info', false],
  ['show-frame-time', false],
  ['output-format', true],
];

/** The screenrecord of Android at `sdk`; undefined before Android 4.4 (SDK 19), which has none. */
export function screenrecordBuild(sdk: number): ScreenrecordBuild | undefined {
  if (sdk < 19) return undefined;
  if (sdk < 21)
    return {
      options: new Map(KITKAT_OPTIONS),
      bitRateUnits: false,
      defaultBitRate: 4_000_000,
      unboundedTimeLimit: false,
      sizeCoversAllDisplays: false,
    };
  const options: [string, boolean][] = [...LOLLIPOP_OPTIONS];
  if (sdk >= 26) options.push(['monotonic-time', false]);
  if (sdk >= 28) options.push(['codec-name', true], ['persistent-surface', false]);
  if (sdk >= 29) options.push(['bframes', true]);
  if (sdk >= 30) options.push(['display-id', true]);
  return {
    version: sdk >= 30 ? '1.3' : '1.2',
    formats:
      sdk >= 29 ? ['mp4', 'h264', 'webm', '3gpp', 'frames', 'raw-frames'] : ['mp4', 'h264', 'frames', 'raw-frames'],
    options: new Map(options),
    bitRateUnits: true,
    defaultBitRate: sdk >= 27 ? 20_000_000 : 4_000_000,
    unboundedTimeLimit: sdk >= 34,
    sizeCoversAllDisplays: sdk >= 34,
  };
}

/** usage(): screenrecord prints it for `--help` only (a bad option gets getopt's one line). */
export function usageText(build: ScreenrecordBuild): string {
  const lines = ['Usage: screenrecord [options] <filename>', ''];
  lines.push(
    build.version
      ? `Android screenrecord v${build.version}.  Records the device's display to a .mp4 file.`
      : "Records the device's display to a .mp4 file.",
    '',
    'Options:',
    '--size WIDTHxHEIGHT',
    '    Set the video size, e.g. "1280x720".  Default is the device\'s main',
    '    display resolution (if supported), 1280x720 if not.  For best results,',
    '    use a size supported by the AVC encoder.',
    '--bit-rate RATE',
  );
  const mbps = build.defaultBitRate / 1_000_000;
  if (build.bitRateUnits)
    lines.push(
      '    Set the video bit rate, in bits per second.  Value may be specified as',
      `    bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default ${mbps}Mbps.`,
      '--bugreport',
      '    Add additional information, such as a timestamp overlay, that is helpful',
      '    in videos captured to illustrate bugs.',
    );
  else lines.push(`    Set the video bit rate, in megabits per second.  Default ${mbps}Mbps.`);
  lines.push('--time-limit TIME');
  if (build.unboundedTimeLimit)
    lines.push(
      `    Set the maximum recording time, in seconds.  Default is ${MAX_TIME_LIMIT_S}. Set to 0`,
      '    to remove the time limit.',
    );
  else lines.push(`    Set the maximum recording time, in seconds.  Default / maximum is ${MAX_TIME_LIMIT_S}.`);
  if (build.options.has('display-id'))
    lines.push(
      '--display-id ID',
      '    specify the physical display ID to record. Default is the primary display.',
      '    see "dumpsys SurfaceFlinger --display-id" for valid display IDs.',
    );
  if (!build.version) lines.push('--rotate', '    Rotate the output 90 degrees.');
  lines.push(
    '--verbose',
    '    Display interesting information on stdout.',
    '--help',
    '    Show this message.',
    '',
    'Recording continues until Ctrl-C is hit or the time limit is reached.',
    '',
    '',
  );
  return lines.join('\n');
}
