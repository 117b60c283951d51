/**
 * The live screen for the UI: captures in a loop over the persistent adb client, one in flight
 * at a time (the next starts when the last is delivered, never queued, so a slow device lowers
 * the frame rate instead of building a backlog), optionally capped to `fps`. With format `auto`
 * the first captures alternate between the device encoding the PNG and this host encoding the
 * raw pixels, and the faster way is kept (screen-capture.ts). The measured frame rate is over
 * the last frames delivered. When the device drops, the loop reports the error and tries again
 * after a pause, until disposed.
 */
import type { Disposable } from '../core/disposable';
import { type Clock, sleep, systemClock } from '../core/pipeline/clock';
import type { ToolCallError } from '../core/result';
import type { DeviceManager } from './manager/device-manager';
import { defaultDisplay, listDisplays } from './displays';
import { CaptureChoice, type CaptureFormat, captureScreen } from './screen-capture';

export interface ScreenFrame {
  png: Buffer;
  mimeType: 'image/png';
  width: number;
  height: number;
  /** Clock time the frame arrived. */
  at: number;
  /** The stream's measured frames per second at this frame. */
  fps: number;
}

export interface ScreenStreamOptions {
  /** Upper bound on frames per second; back-to-back when absent. */
  fps?: number;
  /** Who encodes the PNG: the device (`png`), this host (`raw`), or whichever measures faster (`auto`, default). */
  format?: CaptureFormat | 'auto';
  onError?: (error: ToolCallError) => void;
  /** Pause after a failed capture before the next try (default 1 s). */
  retryMs?: number;
  /** The display to show (SurfaceFlinger's physical id); default: the built-in display that is on. */
  display?: string;
  clock?: Clock;
}

export interface ScreenStream extends Disposable {
  /** Frames per second over the recent frames; 0 before two frames or after a stall. */
  framesPerSecond(): number;
  readonly frameCount: number;
  /** The capture format in use (with `auto`, settled after the first few frames). */
  readonly format: CaptureFormat;
}

const WINDOW = 20;
/** Captures per format that `auto` measures before choosing. */
const TRIALS = 2;

export function startScreenStream(
  manager: DeviceManager,
  serial: string,
  onFrame: (frame: ScreenFrame) => void,
  opts: ScreenStreamOptions = {},
): ScreenStream {
  const clock = opts.clock ?? systemClock;
  const stop = new AbortController();
  const times: number[] = [];
  let frameCount = 0;
  const minInterval = opts.fps && opts.fps > 0 ? 1000 / opts.fps : 0;
  const choice = new CaptureChoice(opts.format === 'png' || opts.format === 'raw' ? opts.format : undefined, TRIALS);

  const framesPerSecond = () => {
    const first = times[0];
    const last = times[times.length - 1];
    if (first === undefined || last === undefined || times.length < 2) return 0;
    if (clock.now() - last > 3_000) return 0;
    return ((times.length - 1) * 1000) / (last - first);
  };

  let display = opts.display;
  const loop = async () => {
    while (!stop.signal.aborted) {
      const started = clock.now();
      const format = choice.next();
      try {
        const capture = await captureScreen(manager, serial, format, stop.signal, display);
        if (stop.signal.aborted) return;
        if (capture?.multiDisplay && !display) {
          // Several displays and no -d: screencap took the first one; show the one that is on instead.
          display = defaultDisplay(await listDisplays(manager, serial, { signal: stop.signal }))?.physicalId;
          if (display) continue;
        }
        if (!capture) {
          // This device cannot give frames this way: settle on the other one (or report when png fails).
          if (!choice.unusable(format))
            throw new Error('the device sent no complete PNG (screen capture failed or the link dropped)');
          continue;
        }
        const at = clock.now();
        choice.record(format, at - started);
        times.push(at);
        if (times.length > WINDOW) times.shift();
        frameCount++;
        try {
          onFrame({
            png: capture.png,
            mimeType: 'image/png',
            width: capture.width,
            height: capture.height,
            at,
            fps: Math.round(framesPerSecond() * 10) / 10,
          });
        } catch {
          // A failing consumer must not stop the stream.
        }
      } catch (e) {
        if (stop.signal.aborted) return;
        opts.onError?.(e as ToolCallError);
        await sleep(clock, opts.retryMs ?? 1_000, stop.signal);
        continue;
      }
      const wait = minInterval - (clock.now() - started);
      if (wait > 0) await sleep(clock, wait, stop.signal);
    }
  };
  void loop();

  return {
    get frameCount() {
      return frameCount;
    },
    get format() {
      return choice.decided ?? choice.next();
    },
    framesPerSecond,
    dispose() {
      stop.abort();
    },
  };
}
