/**
 * Draws a live screen (the browser's mirror: up to ~20 frames a second of base64 images) on a canvas
 * without React: each frame only replaces "the latest frame" in a closure; one animation frame
 * decodes it (createImageBitmap, off the main thread) and draws it. Frames that arrive while one is
 * being decoded are skipped, not queued, so a slow machine shows fewer frames instead of falling
 * behind. The frame rate, size and freshness reach React twice a second through `stats`.
 */
import { useEffect, useRef, useState } from 'react';
import type { ScreenFrame } from '../../../shared/contract';
import { FpsWindow } from '../state/fps-window';

export type FrameSubscribe = (onFrame: (frame: ScreenFrame) => void) => () => void;

/** The pixel size the last drawn frame stands for (device pixels for a phone). */
export interface DrawnFrame {
  width: number;
  height: number;
}

export interface LiveFrameStats {
  /** Frames drawn per second over the last second (what the person sees). */
  fps: number;
  /** The capture rate the host reports with each frame. */
  sourceFps: number;
  width: number;
  height: number;
  framesDrawn: number;
  /** Date.now() of the last drawn frame. */
  lastFrameAt: number | undefined;
  decodeErrors: number;
}

export const NO_FRAME_STATS: LiveFrameStats = {
  fps: 0,
  sourceFps: 0,
  width: 0,
  height: 0,
  framesDrawn: 0,
  lastFrameAt: undefined,
  decodeErrors: 0,
};
const STATS_EVERY_MS = 500;

function decodeFrame(frame: ScreenFrame): Promise<ImageBitmap> {
  // Decoded by hand: fetch() of a data: URL is refused by the page's CSP (connect-src).
  const binary = atob(frame.data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return createImageBitmap(new Blob([bytes], { type: frame.mimeType }));
}

function sameStats(a: LiveFrameStats, b: LiveFrameStats): boolean {
  return (Object.keys(a) as Array<keyof LiveFrameStats>).every((k) => a[k] === b[k]);
}

export function useLiveFrames(subscribe: FrameSubscribe | undefined): {
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  drawnRef: React.RefObject<DrawnFrame | undefined>;
  stats: LiveFrameStats;
} {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawnRef = useRef<DrawnFrame | undefined>(undefined);
  const [stats, setStats] = useState<LiveFrameStats>(NO_FRAME_STATS);

  useEffect(() => {
    setStats(NO_FRAME_STATS);
    drawnRef.current = undefined;
    if (!subscribe) return;
    const meter = new FpsWindow();
    let latest: ScreenFrame | undefined;
    let drawn: ScreenFrame | undefined;
    let decoding = false;
    let disposed = false;
    let raf: number | undefined;
    let framesDrawn = 0;
    let decodeErrors = 0;
    let lastFrameAt: number | undefined;

    const schedule = () => {
      if (raf === undefined && !disposed) raf = requestAnimationFrame(draw);
    };
    const draw = () => {
      raf = undefined;
      const frame = latest;
      if (!frame || frame === drawn || decoding) return;
      decoding = true;
      decodeFrame(frame)
        .then(
          (bitmap) => {
            const canvas = canvasRef.current;
            if (!disposed && canvas) {
              if (canvas.width !== bitmap.width) canvas.width = bitmap.width;
              if (canvas.height !== bitmap.height) canvas.height = bitmap.height;
              canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
              drawnRef.current = { width: frame.width || bitmap.width, height: frame.height || bitmap.height };
              framesDrawn++;
              lastFrameAt = Date.now();
              meter.record(performance.now());
            }
            bitmap.close();
          },
          () => void decodeErrors++,
        )
        .finally(() => {
          drawn = frame;
          decoding = false;
          if (latest !== drawn) schedule();
        });
    };

    const unsubscribe = subscribe((frame) => {
      latest = frame;
      schedule();
    });
    const timer = setInterval(() => {
      const size = drawnRef.current;
      const next: LiveFrameStats = {
        fps: Math.round(meter.rate(performance.now()) * 10) / 10,
        sourceFps: latest?.fps ?? 0,
        width: size?.width ?? 0,
        height: size?.height ?? 0,
        framesDrawn,
        lastFrameAt,
        decodeErrors,
      };
      setStats((prev) => (sameStats(prev, next) ? prev : next));
    }, STATS_EVERY_MS);
    return () => {
      disposed = true;
      unsubscribe();
      clearInterval(timer);
      if (raf !== undefined) cancelAnimationFrame(raf);
    };
  }, [subscribe]);

  return { canvasRef, drawnRef, stats };
}
