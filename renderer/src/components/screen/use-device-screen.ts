/**
 * A device's live screen on a canvas, without React in the frame path: a channel to the host
 * (api.openScreen) sized for the canvas as laid out, H.264 frames decoded by VideoDecoder and PNG
 * frames by createImageBitmap, each picture drawn as soon as it is decoded and then acknowledged, so
 * the host sends this page only what it keeps up with. Drawn frames are counted over the last
 * second; the virtual phone's latency probe is read back from the canvas after each one and
 * announced as a `toolgate-screen-probe` event on the canvas. What the host says (mode, reason,
 * sizes) and the counts reach React twice a second. A lost channel is opened again.
 */
import { useEffect, useRef, useState } from 'react';
import type { OpenScreen, ScreenMode, ScreenStatus, WireFrame } from '../../../../shared/screen-wire';
import { FpsWindow } from '../../state/fps-window';
import { H264Decoder, canDecodeH264 } from './h264-decoder';
import { ProbeTracker, type Size, readCanvasProbe } from './probe-reader';

export interface DeviceScreenStats {
  mode: ScreenMode | 'connecting';
  reason: string;
  /** Frames drawn per second over the last second (what the person sees). */
  fps: number;
  framesDrawn: number;
  /** The phone's display (the pixels taps address). */
  display: Size | undefined;
  /** The size of what is drawn: the video, or the screenshot. */
  picture: Size | undefined;
  codec: string | undefined;
  bitRate: number | undefined;
  sourceFps: number;
  skipped: number;
  restarts: number;
  decodeErrors: number;
  lastError: string | undefined;
  /** From the phone's latency probe: its newest frame counter and the median ms from its screen to this canvas. */
  probe: { counter: number; latencyMs: number } | undefined;
  lastFrameAt: number | undefined;
}

/** What a pointer on the canvas maps through: the drawn picture's size, and the device's. */
export interface ScreenGeometry {
  picture: Size;
  device: Size;
}

export interface ProbeEventDetail {
  counter: number;
  latencyMs: number;
  seq: number;
  mode: ScreenMode;
  at: number;
}

export const PROBE_EVENT = 'toolgate-screen-probe';

const INITIAL: DeviceScreenStats = {
  mode: 'connecting',
  reason: 'Connecting to the host…',
  fps: 0,
  framesDrawn: 0,
  display: undefined,
  picture: undefined,
  codec: undefined,
  bitRate: undefined,
  sourceFps: 0,
  skipped: 0,
  restarts: 0,
  decodeErrors: 0,
  lastError: undefined,
  probe: undefined,
  lastFrameAt: undefined,
};
const STATS_EVERY_MS = 500;
const MAX_RECONNECT_MS = 10_000;

function canvasRequest(canvas: HTMLCanvasElement): { maxWidth: number; maxHeight: number } {
  const box = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const width = Math.round(box.width * dpr);
  const height = Math.round(box.height * dpr);
  return width >= 16 && height >= 16 ? { maxWidth: width, maxHeight: height } : { maxWidth: 720, maxHeight: 1280 };
}

export function useDeviceScreen(
  openScreen: OpenScreen,
  serial: string,
  live: boolean,
): {
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  geometryRef: React.RefObject<ScreenGeometry | undefined>;
  stats: DeviceScreenStats;
} {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const geometryRef = useRef<ScreenGeometry | undefined>(undefined);
  const [stats, setStats] = useState<DeviceScreenStats>(INITIAL);

  useEffect(() => {
    setStats(INITIAL);
    geometryRef.current = undefined;
    const canvas = canvasRef.current;
    if (!live || !canvas) return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const meter = new FpsWindow();
    const probes = new ProbeTracker();
    let status: ScreenStatus | undefined;
    let channel: ReturnType<OpenScreen> | undefined;
    let disposed = false;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let framesDrawn = 0;
    let decodeErrors = 0;
    let lastError: string | undefined;
    let lastFrameAt: number | undefined;
    let closedReason: string | undefined;
    let pngBusy = false;
    let pngNext: WireFrame | undefined;

    const ack = (seq: number) => channel?.ack(seq);
    const drawn = (seq: number) => {
      framesDrawn++;
      lastFrameAt = Date.now();
      meter.record(performance.now());
      const device = status?.display ?? { width: canvas.width, height: canvas.height };
      geometryRef.current = { picture: { width: canvas.width, height: canvas.height }, device };
      if (status && probes.shouldLook()) {
        const sample = probes.record(readCanvasProbe(ctx, canvas, device), Date.now());
        if (sample) {
          const detail: ProbeEventDetail = { ...sample, seq, mode: status.mode, at: Date.now() };
          canvas.dispatchEvent(new CustomEvent(PROBE_EVENT, { detail }));
        }
      }
      ack(seq);
    };
    const sizeCanvas = (width: number, height: number) => {
      if (canvas.width !== width) canvas.width = width;
      if (canvas.height !== height) canvas.height = height;
    };

    const decoder = new H264Decoder({
      picture: (picture, seq) => {
        if (!disposed) {
          sizeCanvas(picture.displayWidth, picture.displayHeight);
          ctx.drawImage(picture, 0, 0);
        }
        picture.close();
        if (!disposed) drawn(seq);
      },
      dropped: ack,
      error: (message) => {
        decodeErrors++;
        lastError = message;
      },
    });

    const showPng = (frame: WireFrame) => {
      if (pngBusy) {
        // Only the newest screenshot is worth decoding; the one it replaces is done with.
        if (pngNext) ack(pngNext.seq);
        pngNext = frame;
        return;
      }
      pngBusy = true;
      createImageBitmap(new Blob([frame.data as Uint8Array<ArrayBuffer>], { type: 'image/png' }))
        .then(
          (bitmap) => {
            if (!disposed) {
              sizeCanvas(bitmap.width, bitmap.height);
              ctx.drawImage(bitmap, 0, 0);
              drawn(frame.seq);
            }
            bitmap.close();
          },
          (e: unknown) => {
            decodeErrors++;
            lastError = e instanceof Error ? e.message : String(e);
            ack(frame.seq);
          },
        )
        .finally(() => {
          pngBusy = false;
          const next = pngNext;
          pngNext = undefined;
          if (next && !disposed) showPng(next);
        });
    };

    const connect = () => {
      closedReason = undefined;
      channel = openScreen(
        { serial, ...canvasRequest(canvas), h264: canDecodeH264() },
        {
          status: (s) => {
            status = s;
            attempts = 0;
            if (s.display && geometryRef.current) geometryRef.current = { ...geometryRef.current, device: s.display };
          },
          frame: (frame) => {
            if (disposed) return;
            if (frame.kind === 'h264') decoder.decode(frame, status?.codec);
            else showPng(frame);
          },
          closed: (reason) => {
            if (disposed) return;
            closedReason = reason;
            channel = undefined;
            attempts++;
            reconnectTimer = setTimeout(connect, Math.min(MAX_RECONNECT_MS, 500 * 2 ** attempts));
          },
        },
      );
    };
    connect();

    const timer = setInterval(() => {
      const now = Date.now();
      const s = status;
      setStats({
        mode: closedReason || !s ? 'connecting' : s.mode,
        reason: closedReason ? `The screen channel closed (${closedReason}); opening it again…` : (s?.reason ?? ''),
        fps: Math.round(meter.rate(performance.now()) * 10) / 10,
        framesDrawn,
        display: s?.display,
        picture: framesDrawn > 0 ? { width: canvas.width, height: canvas.height } : undefined,
        codec: s?.codec,
        bitRate: s?.bitRate,
        sourceFps: s?.sourceFps ?? 0,
        skipped: s?.skipped ?? 0,
        restarts: s?.restarts ?? 0,
        decodeErrors,
        lastError,
        probe: probes.summary(now),
        lastFrameAt,
      });
    }, STATS_EVERY_MS);

    return () => {
      disposed = true;
      clearInterval(timer);
      clearTimeout(reconnectTimer);
      channel?.close();
      decoder.close();
    };
  }, [openScreen, serial, live]);

  return { canvasRef, geometryRef, stats };
}
