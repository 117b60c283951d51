/**
 * The live device screen between host and renderer: one channel per viewer (the WebSocket
 * `/api/screen` headless, IPC in Electron). The host sends status messages (JSON) and frames
 * (binary: a 16-byte header, then an H.264 access unit in Annex B or a PNG); the viewer acknowledges
 * each frame it has shown, and the host sends a viewer at most a window of frames it has not
 * acknowledged, so a slow viewer skips to the next key frame instead of piling frames up.
 */
import { z } from 'zod';

export const SCREEN_SOCKET_PATH = '/api/screen';

const Size = z.object({ width: z.number().int().min(1), height: z.number().int().min(1) });
export type Size = z.infer<typeof Size>;

/** What a viewer asks for: a phone, and the canvas it draws on (in device pixels) to size the video for. */
export const ScreenRequest = z.object({
  serial: z.string().min(1).max(256),
  maxWidth: z.coerce.number().int().min(16).max(8192),
  maxHeight: z.coerce.number().int().min(16).max(8192),
  /** Whether this viewer can decode H.264 (WebCodecs VideoDecoder); without it the phone is streamed as screenshots. */
  h264: z
    .union([z.boolean(), z.enum(['0', '1'])])
    .transform((v) => v === true || v === '1')
    .default(true),
});
export type ScreenRequest = z.input<typeof ScreenRequest>;

/**
 * `starting`: the stream is being set up; `h264`: the phone's encoder (screenrecord); `screencap`:
 * one screenshot after another (screenrecord is missing or failed); `failed`: no picture at all.
 */
export const ScreenMode = z.enum(['starting', 'h264', 'screencap', 'failed']);
export type ScreenMode = z.infer<typeof ScreenMode>;

export const ScreenStatus = z.object({
  type: z.literal('status'),
  mode: ScreenMode,
  /** Why this mode runs, in a sentence a person reads on the Devices page. */
  reason: z.string(),
  /** The phone's display in its current orientation: taps and drags map to these pixels. */
  display: Size.optional(),
  /** H.264: the VideoDecoder codec string (avc1.PPCCLL from the SPS). */
  codec: z.string().optional(),
  /** H.264: the size the phone encodes at, and its bit rate. */
  video: Size.optional(),
  bitRate: z.number().optional(),
  /** Frames per second the host received from the phone over the last second. */
  sourceFps: z.number(),
  /** Frames this viewer was not sent because it fell behind. */
  skipped: z.number().int().min(0),
  /** Times screenrecord was restarted (before its time limit, or for a new size). */
  restarts: z.number().int().min(0),
});
export type ScreenStatus = z.infer<typeof ScreenStatus>;

/** Viewer → host: every frame up to `seq` has been shown (or dropped by the viewer). */
export const ScreenAck = z.object({ type: z.literal('ack'), seq: z.number().int().min(0) });
export type ScreenAck = z.infer<typeof ScreenAck>;

/** What a page gets when it opens a screen: status messages, frames, and the end of the channel. */
export interface ScreenListener {
  status(status: ScreenStatus): void;
  frame(frame: WireFrame): void;
  closed(reason: string): void;
}

export interface ScreenChannel {
  ack(seq: number): void;
  close(): void;
}

export type OpenScreen = (request: ScreenRequest, listener: ScreenListener) => ScreenChannel;

export type FrameKind = 'h264' | 'png';

export interface WireFrame {
  kind: FrameKind;
  /** An H.264 key frame (with its SPS and PPS), or any PNG. */
  key: boolean;
  /** Numbers every frame of the phone's stream, across restarts and modes. */
  seq: number;
  /** Host clock (ms since the epoch) when the frame was complete on the host. */
  at: number;
  data: Uint8Array;
}

export const FRAME_HEADER_BYTES = 16;
const KIND_CODES: Record<FrameKind, number> = { h264: 1, png: 2 };

/** Header then payload: kind (u8), flags (u8, bit 0 = key), 2 bytes reserved, seq (u32 LE), at (f64 LE). */
export function encodeFrame(frame: WireFrame): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_BYTES + frame.data.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, KIND_CODES[frame.kind]);
  view.setUint8(1, frame.key ? 1 : 0);
  view.setUint32(4, frame.seq >>> 0, true);
  view.setFloat64(8, frame.at, true);
  out.set(frame.data, FRAME_HEADER_BYTES);
  return out;
}

/** The frame in a binary message, or undefined when it is not one. The payload is a view, not a copy. */
export function decodeFrame(message: ArrayBuffer | Uint8Array): WireFrame | undefined {
  const bytes = message instanceof Uint8Array ? message : new Uint8Array(message);
  if (bytes.length <= FRAME_HEADER_BYTES) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const code = view.getUint8(0);
  const kind = code === 1 ? 'h264' : code === 2 ? 'png' : undefined;
  if (!kind) return undefined;
  return {
    kind,
    key: (view.getUint8(1) & 1) === 1,
    seq: view.getUint32(4, true),
    at: view.getFloat64(8, true),
    data: bytes.subarray(FRAME_HEADER_BYTES),
  };
}
