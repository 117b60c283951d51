/**
 * `screenrecord [--size WxH] [--bit-rate RATE] [--time-limit S] [--output-format FORMAT] FILE`, as
 * Android 10+ answers it (frameworks/av cmds/screenrecord/screenrecord.cpp): only
 * `--output-format=h264` to `-` (stdout) is recorded here, which is what a host streams from. The
 * phone's frames, composed at the video's size (compositor.ts), go through ffmpeg's libx264
 * (h264-encoder.ts). A size of another aspect is letterboxed, as screenrecord does; the recording ends at the time limit (180 s
 * by default and at most) or when the stream closes. recorder-settings.ts makes it missing or
 * failing as older or refusing phones are.
 */
import type { CommandContext } from '../commands/types';
import { SYSTEM_PID } from '../phone';
import { compositorOf } from './compositor';
import { startH264Encoder } from './h264-encoder';
import { recorderSettings } from './recorder-settings';

const MIN_BIT_RATE = 100_000;
const MAX_BIT_RATE = 200_000_000;
const DEFAULT_BIT_RATE = 20_000_000;
/** The largest frame side the virtual encoder takes (a phone's AVC encoder has such a limit too). */
const MAX_ENCODER_SIDE = 4096;
const FORMATS = ['mp4', 'h264', 'webm', '3gpp', 'frames', 'raw-frames'];
const WITH_VALUE = ['--size', '--bit-rate', '--time-limit', '--output-format', '--codec-name', '--display-id'];

const USAGE = `Usage: screenrecord [options] <filename>

Android screenrecord v1.3.  Records the device's display to a .mp4 file.

Options:
--size WIDTHxHEIGHT
    Set the video size, e.g. "1280x720".  Default is the device's main
    display resolution (if supported), 1280x720 if not.  For best results,
    use a size supported by the AVC encoder.
--bit-rate RATE
    Set the video bit rate, in bits per second.  Value may be specified as
    bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default 20Mbps.
--time-limit TIME
    Set the maximum recording time, in seconds.  Default / maximum is 180.
--output-format FORMAT
    Format can be one of "mp4", "h264", "webm", "3gpp", "frames" or "raw-frames".
--help
    Show this message.

Recording continues until Ctrl-C is hit or the time limit is reached.
`;

/** `4000000`, `4M`, `500k`: bits per second (parseValueWithUnit). */
function parseBitRate(text: string): number | undefined {
  const m = /^(\d+)([kKmM]?)$/.exec(text);
  if (!m) return undefined;
  const unit = m[2]?.toLowerCase() === 'm' ? 1_000_000 : m[2]?.toLowerCase() === 'k' ? 1_000 : 1;
  return Number(m[1]) * unit;
}

interface Options {
  size?: { width: number; height: number };
  bitRate: number;
  timeLimitS: number;
  format: string;
  file: string;
}

/** Parses argv like getopt_long; a string is what screenrecord prints before exiting with status 2. */
function parseOptions(args: string[], maxTimeLimitS: number, knowsFormats: boolean): Options | string {
  const values = new Map<string, string>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--') || arg === '-') {
      operands.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name === '--help') return USAGE;
    if (!knowsFormats && name === '--output-format') return `screenrecord: unrecognized option '${arg}'\n${USAGE}`;
    if (WITH_VALUE.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) return `screenrecord: option '${name}' requires an argument\n${USAGE}`;
      values.set(name, value);
    } else if (!['--verbose', '--bugreport', '--rotate', '--monotonic-time', '--persistent-surface'].includes(name)) {
      return `screenrecord: unrecognized option '${arg}'\n${USAGE}`;
    }
  }
  const options: Options = { bitRate: DEFAULT_BIT_RATE, timeLimitS: maxTimeLimitS, format: 'mp4', file: '' };
  const size = values.get('--size');
  if (size !== undefined) {
    const m = /^(\d+)x(\d+)$/.exec(size);
    if (!m) return `Invalid size '${size}', must be width x height\n`;
    const width = Number(m[1]);
    const height = Number(m[2]);
    if (width === 0 || height === 0) return `Invalid size ${width}x${height}, width and height may not be zero\n`;
    options.size = { width, height };
  }
  const rate = values.get('--bit-rate');
  if (rate !== undefined) {
    const bitRate = parseBitRate(rate);
    if (bitRate === undefined) return `Invalid bit rate '${rate}'\n`;
    if (bitRate < MIN_BIT_RATE || bitRate > MAX_BIT_RATE)
      return `Bit rate ${bitRate}bps outside acceptable range [${MIN_BIT_RATE},${MAX_BIT_RATE}]\n`;
    options.bitRate = bitRate;
  }
  const limit = values.get('--time-limit');
  if (limit !== undefined) {
    const seconds = Number.parseInt(limit, 10) || 0;
    if (seconds <= 0 || seconds > maxTimeLimitS)
      return `Time limit ${seconds}s outside acceptable range [1,${maxTimeLimitS}]\n`;
    options.timeLimitS = seconds;
  }
  const format = values.get('--output-format');
  if (format !== undefined) {
    if (!FORMATS.includes(format)) return `Unknown format '${format}'\n`;
    options.format = format;
  }
  if (operands.length !== 1) return 'Must specify output file (see --help).\n';
  options.file = operands[0] ?? '';
  return options;
}

export async function screenrecord(ctx: CommandContext): Promise<number> {
  const phone = ctx.phone;
  const settings = recorderSettings(phone);
  if (settings.support === 'missing') {
    ctx.err('/system/bin/sh: screenrecord: not found\n');
    return 127;
  }
  const parsed = parseOptions(ctx.argv.slice(1), settings.maxTimeLimitS, settings.support !== 'no-h264-output');
  if (typeof parsed === 'string') {
    ctx.err(parsed);
    return parsed === USAGE ? 0 : 2;
  }
  if (parsed.format !== 'h264' || parsed.file !== '-') {
    ctx.err(`ERROR: this virtual phone records only --output-format=h264 to '-' (stdout)\n`);
    return 1;
  }
  const display = { width: phone.screen.width, height: phone.screen.height };
  const video = parsed.size ?? display;
  if (settings.support === 'encoder-fails') {
    phone.log.add('E', 'screenrecord', 'unable to create video/avc codec instance', SYSTEM_PID);
    ctx.err('ERROR: unable to create video/avc codec instance\n');
    return 1;
  }
  if (video.width % 2 || video.height % 2 || Math.max(video.width, video.height) > MAX_ENCODER_SIDE) {
    ctx.err(`ERROR: unable to configure video/avc codec at ${video.width}x${video.height} (err=-22)\n`);
    return 1;
  }
  // The display is composed at the video's size (letterboxed for another aspect), as screenrecord's virtual display is.
  const encoder = startH264Encoder({
    input: video,
    bitRate: parsed.bitRate,
    fps: settings.refreshHz,
    keyFrameIntervalS: settings.keyFrameIntervalS,
  });
  encoder.output.on('data', (chunk: Buffer) => ctx.stdout.write(chunk));
  const feed = compositorOf(phone).attach((frame) => encoder.write(frame), video);
  const stop = (finish: boolean) => {
    feed.dispose();
    if (finish) encoder.finish();
    else encoder.kill();
  };
  const limit = setTimeout(() => stop(true), parsed.timeLimitS * 1000);
  const onAbort = () => stop(false);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const { started, code, error } = await encoder.exited;
  clearTimeout(limit);
  ctx.signal.removeEventListener('abort', onAbort);
  feed.dispose();
  // Stopped by the host closing the stream (ffmpeg killed): a normal end, as Ctrl-C is for screenrecord.
  if (ctx.signal.aborted) return 0;
  if (!started || code !== 0) {
    // ffmpeg is this phone's encoder: without it (or when it fails) the encoder cannot be created.
    phone.log.add('E', 'screenrecord', `encoder failed: ${error.split('\n')[0] ?? ''}`, SYSTEM_PID);
    ctx.err('ERROR: unable to create video/avc codec instance\n');
    return 1;
  }
  return 0;
}
