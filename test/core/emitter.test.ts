/**
 * Rule: an event reaches every listener; a listener that throws breaks neither the emitter nor the
 * other listeners, and its error is reported where the host logs it, never swallowed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Emitter, onListenerError } from '../../tools/core/disposable';

const reported: unknown[] = [];
afterEach(() => {
  reported.length = 0;
});

describe('Emitter', () => {
  it('reports a throwing listener and still reaches the others', () => {
    onListenerError((e) => reported.push(e));
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    emitter.on(() => {
      throw new Error('broken observer');
    });
    emitter.on((n) => seen.push(n));
    emitter.emit(7);
    expect(seen).toEqual([7]);
    expect(reported).toEqual([expect.objectContaining({ message: 'broken observer' })]);
  });

  it('stops reaching a listener once its disposable is disposed', () => {
    const emitter = new Emitter<string>();
    const seen: string[] = [];
    const sub = emitter.on((s) => seen.push(s));
    emitter.emit('a');
    sub.dispose();
    emitter.emit('b');
    expect(seen).toEqual(['a']);
    expect(emitter.size).toBe(0);
  });
});
