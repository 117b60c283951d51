/**
 * Frames per second over a sliding window, for the mirror view's status line and for tests of the
 * screencast. The clock is injected so the count can be checked without waiting.
 */
export class FpsMeter {
  private readonly stamps: number[] = [];

  constructor(
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records one frame, at `at` or now. */
  tick(at: number = this.now()): void {
    this.stamps.push(at);
    this.trim(at);
  }

  /** Frames per second over the last window, as of now. */
  fps(at: number = this.now()): number {
    this.trim(at);
    return (this.stamps.length * 1000) / this.windowMs;
  }

  /** Frames recorded in the current window. */
  get frames(): number {
    return this.stamps.length;
  }

  private trim(at: number): void {
    const from = at - this.windowMs;
    while (this.stamps.length > 0 && (this.stamps[0] as number) <= from) this.stamps.shift();
  }
}
