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

/** Where a throwing listener is reported; the host points it at its log. Never silent. */
let reportListenerError: (error: unknown) => void = (error) =>
  console.error('toolgate: an event listener failed:', error instanceof Error ? (error.stack ?? error.message) : error);

export function onListenerError(report: (error: unknown) => void): void {
  reportListenerError = report;
}

/**
 * A typed event with listeners that each get a disposable. A throwing listener never breaks the
 * emitter or the other listeners; its error is reported (onListenerError), never swallowed.
 */
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
      } catch (error) {
        // A broken observer must not take the pipeline down with it, nor fail unseen.
        reportListenerError(error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
