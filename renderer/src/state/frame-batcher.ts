/**
 * Collects items and hands them over once per animation frame, so fifty events a second cause at
 * most one cache update (and one render) per frame. In a hidden tab animation frames stop; a timer
 * takes over so the queue keeps draining, and the queue itself is capped.
 */
export interface FrameBatcher<T> {
  push(item: T): void;
  flush(): void;
  dispose(): void;
}

export function createFrameBatcher<T>(deliver: (items: T[]) => void, maxQueued = 20_000): FrameBatcher<T> {
  let queue: T[] = [];
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = timer = undefined;
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    deliver(items);
  };

  const schedule = () => {
    if (frame !== undefined || timer !== undefined) return;
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') timer = setTimeout(flush, 250);
    else frame = requestAnimationFrame(flush);
  };

  return {
    push(item) {
      queue.push(item);
      // Oldest first out: what was dropped is also in the host's durable trace store.
      if (queue.length > maxQueued) queue.splice(0, queue.length - maxQueued);
      schedule();
    },
    flush,
    dispose() {
      if (frame !== undefined) cancelAnimationFrame(frame);
      clearTimeout(timer);
      queue = [];
    },
  };
}
