/**
 * Waiting tasks, one FIFO lane per key (a tool), taken round-robin: a burst of one tool's calls
 * waits behind itself, while the next free worker goes to the next tool that has work. Each lane
 * has its own bound, so one tool filling its lane never refuses another tool's call.
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

  /** Appends to the lane; false when the lane already holds its bound. */
  push(lane: string, item: T): boolean {
    let queue = this.lanes.get(lane);
    if (queue === undefined) {
      queue = [];
      this.lanes.set(lane, queue);
      this.order.push(lane);
    }
    if (queue.length >= this.maxPerLane) return false;
    queue.push(item);
    this.count += 1;
    return true;
  }

  /** The head of the next non-empty lane after the one served last. */
  take(): T | undefined {
    for (let i = 0; i < this.order.length; i++) {
      const index = (this.cursor + i) % this.order.length;
      const queue = this.lanes.get(this.order[index] as string);
      if (queue !== undefined && queue.length > 0) {
        this.cursor = (index + 1) % this.order.length;
        this.count -= 1;
        return queue.shift();
      }
    }
    return undefined;
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
