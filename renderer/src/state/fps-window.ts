/**
 * Frames per second over a sliding window (1 s by default): the live screens count the frames
 * they actually drew, which is what a person sees, not what the host meant to send. Time is
 * passed in, so the count is tested without waiting.
 */
export class FpsWindow {
  private readonly stamps: number[] = [];

  constructor(private readonly windowMs = 1_000) {}

  record(at: number): void {
    this.stamps.push(at);
    this.trim(at);
  }

  /** Frames per second over the window ending at `now`. */
  rate(now: number): number {
    this.trim(now);
    return (this.stamps.length * 1_000) / this.windowMs;
  }

  private trim(now: number): void {
    const from = now - this.windowMs;
    let drop = 0;
    while (drop < this.stamps.length && this.stamps[drop]! <= from) drop++;
    if (drop > 0) this.stamps.splice(0, drop);
  }
}
