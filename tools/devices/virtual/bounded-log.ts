/**
 * An array that keeps only its newest entries, for the device's command logs: a demo phone whose
 * screen is streamed runs ~20 commands a second for hours, and tests read the logs as plain arrays.
 */
export class BoundedLog<T> extends Array<T> {
  // Methods that build new arrays (map, filter, slice…) return plain arrays, not bounded ones.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  // A #private field, not a property: tests compare the logs with plain arrays.
  readonly #max: number;

  constructor(max: number) {
    super();
    this.#max = max;
  }

  override push(...items: T[]): number {
    super.push(...items);
    if (this.length > this.#max) this.splice(0, this.length - this.#max);
    return this.length;
  }
}

/** How many entries the command logs keep. */
export const COMMAND_LOG_LIMIT = 20_000;
