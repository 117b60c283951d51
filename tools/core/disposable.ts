/** Everything that subscribes or registers returns one of these; dispose() undoes it, once. */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** A typed event with listeners that each get a disposable. A throwing listener never breaks the emitter. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  on(listener: (value: T) => void): Disposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }

  emit(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch {
        // A broken observer must not take the pipeline down with it.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
