/**
 * Waiting tasks, one FIFO lane per key (a tool). A free worker takes from the waiting lane with
 * the fewest tasks already running, round-robin among equals: a burst of one tool's calls waits
 * behind itself, and a tool with nothing running (a quick calculation amid a flood of hostile
 * regexes) gets the next worker. Each lane has its own bound, so one tool filling its lane never
 * refuses another tool's call.
 */
export class LaneQueue<T> {
  private readonly lanes = new Map<string, T[]>();
  private readonly order: string[] = [];
  private cursor = 0;
  private count = 0;

  constructor(private readonly maxPerLane: number) {}

  get size(): number {
    return this.count;
  }

  waiting(lane: string): number {
    return this.lanes.get(lane)?.length ?? 0;
  }

  /** Appends to the lane; false when the lane already holds its bound plus `room` (tasks about to be taken). */
  push(lane: string, item: T, room = 0): boolean {
    let queue = this.lanes.get(lane);
    if (queue === undefined) {
      queue = [];
      this.lanes.set(lane, queue);
      this.order.push(lane);
    }
    if (queue.length >= this.maxPerLane + room) return false;
    queue.push(item);
    this.count += 1;
    return true;
  }

  /** The head of the waiting lane with the fewest `running` tasks, the first after the last served among equals. */
  take(running: (lane: string) => number): T | undefined {
    let best = -1;
    let bestRunning = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.order.length; i++) {
      const index = (this.cursor + i) % this.order.length;
      const lane = this.order[index] as string;
      if ((this.lanes.get(lane)?.length ?? 0) === 0) continue;
      const load = running(lane);
      if (load < bestRunning) {
        best = index;
        bestRunning = load;
      }
    }
    if (best < 0) return undefined;
    this.cursor = (best + 1) % this.order.length;
    this.count -= 1;
    return this.lanes.get(this.order[best] as string)?.shift();
  }

  /** Removes one waiting item (a cancelled call); false when it was not waiting. */
  remove(lane: string, item: T): boolean {
    const queue = this.lanes.get(lane);
    const index = queue?.indexOf(item) ?? -1;
    if (queue === undefined || index < 0) return false;
    queue.splice(index, 1);
    this.count -= 1;
    return true;
  }

  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    for (const queue of this.lanes.values()) queue.length = 0;
    this.count = 0;
    return all;
  }
}
