/**
 * The phone's H.264 picture as one unbroken stream of access units, out of screenrecord runs that
 * each end at a time limit (180 s on many versions). Before a run reaches its limit the next one is
 * started beside it; when the new run's first key frame arrives the stream switches to it and the
 * old run is stopped, so viewers see no gap, and every run starts with a key frame carrying its SPS
 * and PPS. Key frames without them (encoders send the parameter sets once) get the run's own put in
 * front. `restart()` switches the same way to a run of another size, or just for a fresh key frame.
 *
 * A run that fails before its first picture is the reason screenrecord cannot stream here (missing,
 * too old for `--output-format`, an encoder that refuses) unless it was only the size: a run larger
 * than 1280 px is tried again at 1280. A run failing after the stream has been live is retried
 * once, after a pause.
 */
import type { DeviceManager } from '../manager/device-manager';
import { type AccessUnit, codecString, withParameterSets } from './annexb';
import { type RecordParams, type RecordingRun, startRecordingRun } from './screenrecord-run';
import { chooseBitRate, chooseVideoSize, linkOf } from './stream-params';

export interface H264SourceOptions {
  /** `--time-limit` of each run, in seconds (default 180, the limit of Android 4.4-13). */
  timeLimitS?: number;
  /** How long before a run's limit its successor starts (default 2 s, at most a third of the limit). */
  restartLeadMs?: number;
  /** A run without a picture by then has failed (default 8 s). */
  firstPictureTimeoutMs?: number;
  idleFlushMs?: number;
}

export interface H264SourceEvents {
  /** A picture; `fresh` for the first of a run: a key frame with SPS and PPS, and `codec` for it. */
  onUnit(unit: AccessUnit, fresh: boolean, codec: string): void;
  /** Pictures since the last key frame may be damaged (bytes arrived after a picture was cut off). */
  onDamage(): void;
  /** screenrecord cannot stream from this phone, with why in its own words. */
  onFailure(reason: string): void;
}

export interface H264Source {
  readonly params: RecordParams;
  readonly restarts: number;
  /** Switches to a new run now, without a gap; with `params` of another size or bit rate. */
  restart(params?: RecordParams): void;
  stop(): void;
}

interface Run {
  recording: RecordingRun;
  params: RecordParams;
  live: boolean;
  /** When it was launched: the phone's time limit counts from about then. */
  launchedAt: number;
  sps: Buffer | undefined;
  pps: Buffer | undefined;
  damaged: number;
  timers: ReturnType<typeof setTimeout>[];
  /** Why it was given up before its first picture, when that was this side's doing. */
  failure?: string;
}

const FALLBACK_SIDE = 1280;

export function startH264Source(
  manager: DeviceManager,
  serial: string,
  first: RecordParams,
  events: H264SourceEvents,
  opts: H264SourceOptions = {},
): H264Source {
  const timeLimitS = opts.timeLimitS ?? first.timeLimitS;
  const leadMs = Math.min(opts.restartLeadMs ?? 2_000, (timeLimitS * 1000) / 3);
  const firstPictureMs = opts.firstPictureTimeoutMs ?? 8_000;
  let current: Run | undefined;
  let next: Run | undefined;
  let stopped = false;
  let everLive = false;
  let retried = false;
  let restarts = 0;
  let params: RecordParams = { ...first, timeLimitS };

  const clear = (run: Run) => {
    for (const t of run.timers) clearTimeout(t);
    run.timers = [];
  };

  const launch = (p: RecordParams): Run => {
    // The run's events come later, asynchronously, once `run` is set.
    const run: Run = {
      params: p,
      live: false,
      launchedAt: Date.now(),
      sps: undefined,
      pps: undefined,
      damaged: 0,
      timers: [],
      recording: startRecordingRun(
        manager,
        serial,
        p,
        { onUnit: (unit) => onUnit(run, unit), onEnd: (end) => onEnd(run, end.message) },
        opts.idleFlushMs !== undefined ? { idleFlushMs: opts.idleFlushMs } : {},
      ),
    };
    run.timers.push(
      setTimeout(() => {
        if (!run.live) {
          run.failure = `screenrecord sent no picture within ${firstPictureMs / 1000} s`;
          run.recording.stop();
        }
      }, firstPictureMs),
    );
    return run;
  };

  const goLive = (run: Run, unit: AccessUnit) => {
    run.live = true;
    everLive = true;
    retried = false;
    clear(run);
    // Its successor starts before this run reaches the phone's time limit.
    run.timers.push(
      setTimeout(
        () => {
          if (current === run && !next && !stopped) next = launch(params);
        },
        Math.max(0, run.launchedAt + run.params.timeLimitS * 1000 - leadMs - Date.now()),
      ),
    );
    events.onUnit(unit, true, codecString(unit.sps ?? Buffer.alloc(4)));
  };

  const onUnit = (run: Run, raw: AccessUnit) => {
    if (stopped || (run !== current && run !== next)) return;
    run.sps = raw.sps ?? run.sps;
    run.pps = raw.pps ?? run.pps;
    const unit = withParameterSets(raw, run.sps, run.pps);
    if (!run.live) {
      if (!unit.key || !unit.sps) return; // a decoder can start only at a key frame
      if (run === next) {
        const old = current;
        current = run;
        next = undefined;
        restarts++;
        if (old) {
          clear(old);
          old.recording.stop();
        }
      }
      goLive(run, unit);
      return;
    }
    if (run !== current) return;
    if (run.recording.damaged > run.damaged) {
      run.damaged = run.recording.damaged;
      events.onDamage();
    }
    events.onUnit(unit, false, '');
  };

  const onEnd = (run: Run, message: string) => {
    clear(run);
    if (stopped) return;
    if (run === next) {
      // The successor failed to start; the current run goes on, and a new one follows when it ends.
      next = undefined;
      return;
    }
    if (run !== current) return;
    current = undefined;
    if (run.live) {
      // The run reached its limit (or the phone ended it) before a successor was live.
      if (!next) current = launch(params);
      else {
        current = next;
        next = undefined;
      }
      restarts++;
      return;
    }
    const reason = message || run.failure || 'screenrecord ended without sending a picture';
    if (!everLive && Math.max(run.params.width, run.params.height) > FALLBACK_SIDE) {
      const video = chooseVideoSize(run.params, run.params, FALLBACK_SIDE);
      params = { ...run.params, ...video, bitRate: chooseBitRate(video, linkOf(serial)) };
      current = launch(params);
      return;
    }
    if (everLive && !retried) {
      retried = true;
      const pause = setTimeout(() => {
        if (!stopped && !current) current = launch(params);
      }, 500);
      run.timers.push(pause);
      return;
    }
    stopped = true;
    events.onFailure(reason);
  };

  current = launch(params);

  return {
    get params() {
      return params;
    },
    get restarts() {
      return restarts;
    },
    restart(p) {
      if (stopped) return;
      if (p) params = { ...p, timeLimitS };
      if (next) {
        clear(next);
        next.recording.stop();
      }
      next = launch(params);
    },
    stop() {
      stopped = true;
      for (const run of [current, next]) {
        if (!run) continue;
        clear(run);
        run.recording.stop();
      }
      current = next = undefined;
    },
  };
}
