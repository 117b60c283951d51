/**
 * The phone's display as its recorders see it: one composition loop per phone, started by the
 * first recorder and stopped with the last, composing at most `refreshHz` frames a second and
 * handing each frame to every recorder. The next frame waits until every recorder has taken the
 * last one (an encoder that falls behind slows the display down, it does not lose frames), so the
 * frame counter in the probe numbers exactly the frames the recorders got: a counter value missing
 * at a viewer was lost on the way, not on the phone. A screencap while recorders run sees the
 * frame just composed, as on a phone; otherwise it composes one of its own.
 */
import type { Disposable } from '../../../core/disposable';
import type { VirtualPhone } from '../phone';
import { type Frame, renderFrame } from '../screen';
import { stampProbe } from './probe-stamp';
import { recorderSettings } from './recorder-settings';

/** Takes a frame; the returned promise settles when the frame is taken (an encoder's input accepted it). */
export type FrameConsumer = (frame: Frame) => Promise<void> | void;

class DisplayCompositor {
  private readonly consumers = new Set<FrameConsumer>();
  private counter = 0;
  private latest: Frame | undefined;
  private running = false;

  constructor(private readonly phone: VirtualPhone) {}

  /** Renders the screen now with the next counter value (a sleeping phone's black screen carries none). */
  compose(): Frame {
    const frame = renderFrame(this.phone);
    if (this.phone.awake) stampProbe(frame, this.counter++, Date.now());
    return frame;
  }

  /** What screencap captures. */
  current(): Frame {
    return this.running && this.latest ? this.latest : this.compose();
  }

  attach(consumer: FrameConsumer): Disposable {
    this.consumers.add(consumer);
    if (!this.running) void this.loop();
    let done = false;
    return {
      dispose: () => {
        if (done) return;
        done = true;
        this.consumers.delete(consumer);
      },
    };
  }

  get recorders(): number {
    return this.consumers.size;
  }

  private async loop(): Promise<void> {
    this.running = true;
    let next = performance.now();
    try {
      while (this.consumers.size > 0) {
        const frame = this.compose();
        this.latest = frame;
        await Promise.all([...this.consumers].map((take) => Promise.resolve(take(frame)).catch(() => undefined)));
        // Late (a slow encoder, a busy machine): the next frame comes at once, without a burst to catch up.
        next = Math.max(next + 1000 / recorderSettings(this.phone).refreshHz, performance.now());
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } finally {
      this.running = false;
      this.latest = undefined;
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
