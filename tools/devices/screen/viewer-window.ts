/**
 * How much one viewer may have unacknowledged. Each frame sent waits for the viewer's ack (it was
 * decoded and drawn); while the frames in flight reach the window (bytes or count), the next ones
 * are not sent, and since a picture predicted from a missing one is garbage, the viewer then skips
 * every frame up to the next key frame that fits. A viewer that reads nothing thus holds at most a
 * window of the host's memory (in socket buffers), however long it stalls.
 */

export interface WindowLimits {
  maxBytes: number;
  maxFrames: number;
}

export const DEFAULT_WINDOW: WindowLimits = { maxBytes: 4 * 1024 * 1024, maxFrames: 90 };

export class ViewerWindow {
  private readonly inFlight: { seq: number; bytes: number }[] = [];
  private bytes = 0;
  private needKey = true;
  private sentAny = false;
  /** Frames not sent because the viewer was behind (or was waiting for a key frame after that). */
  skipped = 0;

  constructor(private readonly limits: WindowLimits = DEFAULT_WINDOW) {}

  /** Whether to send this frame now; counts it as in flight when so. */
  offer(seq: number, bytes: number, key: boolean): boolean {
    const fits = this.inFlight.length < this.limits.maxFrames && this.bytes + bytes <= this.limits.maxBytes;
    // A key frame larger than the whole window still goes to an idle viewer, or it could never resume.
    const idleViewer = this.inFlight.length === 0;
    if ((this.needKey && !key) || !(fits || (key && idleViewer))) {
      this.needKey = true;
      // Before its first frame a viewer has lost nothing: it waits for a picture to start at.
      if (this.sentAny) this.skipped++;
      return false;
    }
    this.needKey = false;
    this.sentAny = true;
    this.inFlight.push({ seq, bytes });
    this.bytes += bytes;
    return true;
  }

  /** The frame just let through did not go out after all (the transport was full). */
  unsend(seq: number): void {
    const i = this.inFlight.findIndex((f) => f.seq === seq);
    if (i >= 0) this.bytes -= this.inFlight.splice(i, 1)[0]?.bytes ?? 0;
    this.needKey = true;
    this.skipped++;
  }

  /** The viewer has shown every frame up to `seq`. */
  ack(seq: number): void {
    while (this.inFlight.length > 0 && (this.inFlight[0]?.seq ?? Number.POSITIVE_INFINITY) <= seq) {
      this.bytes -= this.inFlight.shift()?.bytes ?? 0;
    }
  }

  /** Pictures already sent may be damaged: the viewer must start again at a key frame. */
  requireKey(): void {
    this.needKey = true;
  }

  get bytesInFlight(): number {
    return this.bytes;
  }

  get framesInFlight(): number {
    return this.inFlight.length;
  }

  get waitingForKey(): boolean {
    return this.needKey;
  }
}
