/**
 * `screenrecord [options] FILE` as the phone's Android answers it (screenrecord-build.ts for what
 * each version takes, screenrecord-options.ts for its command line and messages). Only
 * `--output-format=h264` to `-` (stdout) is recorded here, which is what a host streams from; an
 * Android without `--output-format` (4.4) refuses that line as getopt does. The display that is on
 * is composed at the video's size (compositor.ts) and goes through ffmpeg's libx264
 * (h264-encoder.ts); a size of another aspect, or a display that changes size while recording (a
 * foldable folding), is letterboxed into the video, as screenrecord's projection does. The
 * recording ends at the time limit (180 s by default; none with Android 14's `--time-limit 0`) or
 * when the stream closes. recorder-settings.ts makes it missing or failing as refusing phones are.
 */
import type { CommandContext } from '../commands/types';
import { SYSTEM_PID } from '../phone';
import { compositorOf } from './compositor';
import { startH264Encoder } from './h264-encoder';
import { recorderSettings } from './recorder-settings';
import { screenrecordBuild } from './screenrecord-build';
import { readRecordOptions } from './screenrecord-options';

/** The largest frame side the virtual encoder takes (a phone's AVC encoder has such a limit too). */
const MAX_ENCODER_SIDE = 4096;
/** setTimeout's longest delay; a longer limit (Android 14 takes any 32-bit count of seconds) is none. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
/** main() returns the status_t it failed with; the shell sees its low byte. */
const exitStatusOf = (err: number) => err & 0xff;
const BAD_VALUE = -22;
const INVALID_OPERATION = -38;
const UNKNOWN_ERROR = -2147483648;

export async function screenrecord(ctx: CommandContext): Promise<number> {
  const phone = ctx.phone;
  const settings = recorderSettings(phone);
  const build =
    settings.support === 'missing'
      ? undefined
      : screenrecordBuild(settings.support === 'no-h264-output' ? 19 : Math.max(21, phone.profile.sdk));
  if (!build) {
    ctx.err('/system/bin/sh: screenrecord: not found\n');
    return 127;
  }
  const options = readRecordOptions(ctx.argv.slice(1), build, phone.profile);
  if ('text' in options) {
    ctx.err(options.text);
    return options.status;
  }
  if (options.format !== 'h264' || options.file !== '-') {
    ctx.err(`ERROR: this virtual phone records only --output-format=h264 to '-' (stdout)\n`);
    return 1;
  }
  const displays = phone.profile.displays;
  const recorded = options.display ?? phone.hardware.activeDisplay;
  if (recorded !== phone.hardware.activeDisplay) {
    // A display that is off has no layer stack to mirror.
    ctx.err('ERROR: INVALID_LAYER_STACK, please check your display state.\n');
    return exitStatusOf(INVALID_OPERATION);
  }
  const even = (n: number) => n - (n % 2);
  const shown = phone.screen;
  const natural =
    build.sizeCoversAllDisplays && options.display === undefined
      ? { width: Math.max(...displays.map((d) => d.width)), height: Math.max(...displays.map((d) => d.height)) }
      : { width: shown.width, height: shown.height };
  const video = options.size ?? { width: even(natural.width), height: even(natural.height) };
  if (settings.support === 'encoder-fails') {
    phone.log.add('E', 'screenrecord', 'unable to create video/avc codec instance', SYSTEM_PID);
    ctx.err('ERROR: unable to create video/avc codec instance\n');
    return exitStatusOf(UNKNOWN_ERROR);
  }
  if (video.width % 2 || video.height % 2 || Math.max(video.width, video.height) > MAX_ENCODER_SIDE) {
    ctx.err(
      build.version
        ? `ERROR: unable to configure video/avc codec at ${video.width}x${video.height} (err=${BAD_VALUE})\n`
        : `ERROR: unable to configure codec (err=${BAD_VALUE})\n`,
    );
    return exitStatusOf(BAD_VALUE);
  }
  if (options.verbose) {
    ctx.err("ERROR: verbose output and '-' not compatible");
    return exitStatusOf(-1);
  }
  const encoder = startH264Encoder({
    input: video,
    bitRate: options.bitRate,
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
  const limitMs = options.timeLimitS * 1000;
  const limit = limitMs <= LONGEST_TIMER_MS ? setTimeout(() => stop(true), limitMs) : undefined;
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
    return exitStatusOf(UNKNOWN_ERROR);
  }
  return 0;
}
