/**
 * The phone's display as its recorders see it: one composition loop per phone, started by the
 * first recorder and stopped with the last, composing at most `refreshHz` frames a second and
 * handing each frame to every recorder at the size it records (screenrecord's virtual display is
 * composed at the video's size). The next frame waits until every recorder has taken the last one
 * (an encoder that falls behind slows the display down, it does not lose frames), so the frame
 * counter in the probe numbers exactly the frames the recorders got: a counter value missing at a
 * viewer was lost on the way, not on the phone. A screencap while recorders run sees the frame
 * just composed, as on a phone.
 *
 * The screen is rendered again only when its scene changed (scene-key.ts), and scaled to each
 * recorder's size then; every frame after that is that picture with a fresh probe stamped in. A
 * recorder's frame is reused in place, which is safe because the next frame is composed only once
 * every recorder has taken the last one.
 */
import type { Disposable } from '../../../core/disposable';
import type { VirtualPhone } from '../phone';
import { type Frame, renderFrame } from '../screen';
import { fitFrame, placement } from './fit-frame';
import { stampProbe } from './probe-stamp';
import { recorderSettings } from './recorder-settings';
import { sceneKey } from './scene-key';

/** Takes a frame; the returned promise settles when the frame is taken (an encoder's input accepted it). */
export type FrameConsumer = (frame: Frame) => Promise<void> | void;

interface Size {
  width: number;
  height: number;
}

/** A rendered picture is rendered again after this long, whatever its scene key says. */
const SCENE_MAX_AGE_MS = 500;

class DisplayCompositor {
  private readonly consumers = new Map<FrameConsumer, Size>();
  private counter = 0;
  private running = false;
  private scene: { key: string; frame: Frame; at: number; sized: Map<string, Frame> } | undefined;

  constructor(private readonly phone: VirtualPhone) {}

  /** What screencap captures: the display now, carrying the counter of the frame the recorders just got. */
  current(): Frame {
    const full = this.sceneNow().frame;
    const frame = { ...full, pixels: Buffer.from(full.pixels) };
    if (this.phone.awake) stampProbe(frame, this.running ? this.counter - 1 : this.counter++, Date.now());
    return frame;
  }

  /** Feeds `consumer` frames of `size` until disposed. */
  attach(consumer: FrameConsumer, size: Size): Disposable {
    this.consumers.set(consumer, size);
    if (!this.running) void this.loop();
    return { dispose: () => void this.consumers.delete(consumer) };
  }

  get recorders(): number {
    return this.consumers.size;
  }

  private sceneNow(): { frame: Frame; sized: Map<string, Frame> } {
    const key = sceneKey(this.phone);
    const now = performance.now();
    if (!this.scene || this.scene.key !== key || now - this.scene.at >= SCENE_MAX_AGE_MS)
      this.scene = { key, frame: renderFrame(this.phone), at: now, sized: new Map() };
    return this.scene;
  }

  /** One frame per recorder size, all with the same counter value. */
  private compose(): Map<string, Frame> {
    const scene = this.sceneNow();
    const counter = this.counter++;
    const time = Date.now();
    const frames = new Map<string, Frame>();
    for (const size of this.consumers.values()) {
      const id = `${size.width}x${size.height}`;
      if (frames.has(id)) continue;
      let frame = scene.sized.get(id);
      if (!frame) {
        frame = fitFrame(scene.frame, size);
        scene.sized.set(id, frame);
      }
      if (this.phone.awake) stampProbe(frame, counter, time, scene.frame.width, placement(scene.frame, size));
      frames.set(id, frame);
    }
    return frames;
  }

  private async loop(): Promise<void> {
    this.running = true;
    let next = performance.now();
    try {
      while (this.consumers.size > 0) {
        const frames = this.compose();
        await Promise.all(
          [...this.consumers].map(([take, size]) => {
            const frame = frames.get(`${size.width}x${size.height}`);
            return frame ? Promise.resolve(take(frame)).catch(() => undefined) : undefined;
          }),
        );
        // Late (a slow encoder, a busy machine): the next frame comes at once, without a burst to catch up.
        next = Math.max(next + 1000 / recorderSettings(this.phone).refreshHz, performance.now());
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } finally {
      this.running = false;
    }
  }
}

const compositors = new WeakMap<VirtualPhone, DisplayCompositor>();

export function compositorOf(phone: VirtualPhone): DisplayCompositor {
  let c = compositors.get(phone);
  if (!c) {
    c = new DisplayCompositor(phone);
    compositors.set(phone, c);
  }
  return c;
}

/** The frame screencap captures. */
export function displayFrame(phone: VirtualPhone): Frame {
  return compositorOf(phone).current();
}
