/**
 * The virtual phone's video encoder: ffmpeg (libx264) reading raw RGBA frames on stdin and writing
 * H.264 in Annex B on stdout, tuned as a phone's hardware encoder behaves for screenrecord: no
 * B-frames, no look-ahead (zerolatency), constant bit rate, SPS and PPS before every key frame.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Frame } from '../screen';

export interface EncoderOptions {
  input: { width: number; height: number };
  bitRate: number;
  /** Frames per second the rate control plans for. */
  fps: number;
  keyFrameIntervalS: number;
}

export interface H264Encoder {
  /** Annex B bytes as the encoder makes them. */
  readonly output: Readable;
  /** Feeds one frame; settles when the encoder took it (or is gone). */
  write(frame: Frame): Promise<void>;
  /** Encodes what it has, then exits. */
  finish(): void;
  kill(): void;
  /** Settles when ffmpeg has exited (`started` false: it could not start); `error` is what it said. */
  readonly exited: Promise<{ started: boolean; code: number | null; error: string }>;
}

export const FFMPEG = process.env.TOOLGATE_FFMPEG || 'ffmpeg';

export function startH264Encoder(opts: EncoderOptions): H264Encoder {
  const { input } = opts;
  const bitRate = String(Math.round(opts.bitRate));
  const args = [
    ['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${input.width}x${input.height}`, '-framerate', String(opts.fps)],
    ['-i', 'pipe:0'],
    ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-bf', '0'],
    ['-g', String(Math.max(1, Math.round(opts.keyFrameIntervalS * opts.fps))), '-threads', '2'],
    ['-b:v', bitRate, '-maxrate', bitRate, '-bufsize', String(Math.round(opts.bitRate / 2))],
    ['-flush_packets', '1', '-f', 'h264', 'pipe:1'],
  ].flat();
  let stderr = '';
  let gone = false;
  const child: ChildProcessWithoutNullStreams = spawn(FFMPEG, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<{ started: boolean; code: number | null; error: string }>((resolve) => {
    child.once('error', (e) => {
      gone = true;
      resolve({ started: child.pid !== undefined, code: null, error: e.message });
    });
    child.once('close', (code) => {
      gone = true;
      resolve({ started: true, code, error: stderr.trim() });
    });
  });
  child.stderr.on('data', (c: Buffer) => {
    if (stderr.length < 4096) stderr += c.toString('utf8');
  });
  // A write after ffmpeg is gone fails with EPIPE: nothing to do but stop feeding it.
  child.stdin.on('error', () => undefined);
  return {
    output: child.stdout,
    write(frame) {
      if (gone || child.stdin.destroyed || child.stdin.writableEnded) return Promise.resolve();
      return new Promise<void>((resolve) => child.stdin.write(frame.pixels, () => resolve()));
    },
    finish() {
      if (!child.stdin.writableEnded) child.stdin.end();
    },
    kill() {
      if (!gone) child.kill('SIGKILL');
    },
    exited,
  };
}
