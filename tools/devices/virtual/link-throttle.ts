/**
 * A cable's throughput and latency on the virtual phone's link, so what loopback carries in no time
 * costs what a real cable costs: USB 2 carries about 35 MB/s of adb traffic one way with about
 * 1 ms of latency, Wi-Fi adb about 5 MB/s with 5 ms. Each direction is a pipe: bytes leave in
 * order, each chunk once the link had time to carry the bytes before it and itself, and arrive the
 * latency later. The settings are read per chunk, so a test can change them while the link is busy.
 */

export interface LinkSettings {
  /** Bytes a second one way; unlimited when absent or 0. */
  bytesPerSecond?: number;
  /** One-way delay of every chunk, in ms. */
  latencyMs?: number;
}

export const LINK_PRESETS = {
  usb2: { bytesPerSecond: 35_000_000, latencyMs: 1 },
  wifi: { bytesPerSecond: 5_000_000, latencyMs: 5 },
} as const satisfies Record<string, LinkSettings>;

export type LinkPreset = keyof typeof LINK_PRESETS;

export function isLinkPreset(name: string): name is LinkPreset {
  return Object.hasOwn(LINK_PRESETS, name);
}

export interface PipeClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: PipeClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One direction of a throttled link. */
export class ThrottledPipe {
  private readonly queue: { chunk: Buffer; due: number }[] = [];
  private busyUntil = 0;
  private timer: unknown;
  private closed = false;

  constructor(
    private readonly deliver: (chunk: Buffer) => void,
    private readonly settings: () => LinkSettings | undefined,
    private readonly clock: PipeClock = realClock,
  ) {}

  push(chunk: Buffer): void {
    if (this.closed) return;
    const s = this.settings();
    const rate = s?.bytesPerSecond ?? 0;
    const latency = s?.latencyMs ?? 0;
    if (rate <= 0 && latency <= 0 && this.queue.length === 0) {
      this.deliver(chunk);
      return;
    }
    const now = this.clock.now();
    const start = Math.max(now, this.busyUntil);
    this.busyUntil = start + (rate > 0 ? (chunk.length * 1000) / rate : 0);
    this.queue.push({ chunk, due: this.busyUntil + latency });
    if (this.queue.length === 1) this.schedule();
  }

  /** Drops what is still on the wire (the cable was pulled). */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const head = this.queue[0];
    if (!head) return;
    this.timer = this.clock.setTimeout(() => this.drain(), Math.max(0, head.due - this.clock.now()));
  }

  private drain(): void {
    this.timer = undefined;
    const now = this.clock.now();
    // Timers fire on whole milliseconds: everything due within the next one leaves now.
    while (this.queue.length > 0 && (this.queue[0]?.due ?? 0) <= now + 0.5) {
      const next = this.queue.shift();
      if (next) this.deliver(next.chunk);
      if (this.closed) return;
    }
    this.schedule();
  }
}
