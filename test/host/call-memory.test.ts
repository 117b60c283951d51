/**
 * Rule: the host remembers recent calls' arguments in memory only, bounded: arguments larger than
 * the bound are not kept (the call is, marked too-large), and they are measured without being
 * copied or stringified, so a call of megabytes costs the memory no more than one that fits.
 */
import { describe, expect, it } from 'vitest';
import { CallMemory } from '../../tools/host/call-memory';

const call = (callId: string, args: unknown) => ({
  callId,
  toolId: 'string_distance',
  args,
  sessionId: 'agent#1',
  requester: { kind: 'mcp' as const },
  environment: [],
});

describe('the call memory', () => {
  it('keeps arguments within the bound as a copy the caller cannot change', () => {
    const memory = new CallMemory({ maxArgChars: 100 });
    const args = { a: 'kitten', candidates: ['sitting'] };
    memory.remember(call('c1', args));
    args.candidates.push('mitten');
    expect(memory.get('c1')).toMatchObject({ args: { a: 'kitten', candidates: ['sitting'] } });
    expect(memory.get('c1')?.argsDropped).toBeUndefined();
  });

  it('remembers a call whose arguments pass the bound without them, however they are spread', () => {
    const memory = new CallMemory({ maxArgChars: 1000 });
    memory.remember(call('one-long', { a: 'x'.repeat(1001) }));
    memory.remember(call('many-short', { candidates: Array.from({ length: 300 }, () => 'abcd') }));
    memory.remember(
      call('deep-keys', { nested: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])) }),
    );
    for (const id of ['one-long', 'many-short', 'deep-keys']) {
      expect(memory.get(id)).toMatchObject({ callId: id, args: undefined, argsDropped: 'too-large' });
    }
  });

  it('keeps arguments just within the bound, JSON escapes counted', () => {
    const memory = new CallMemory({ maxArgChars: 20 });
    memory.remember(call('fits', { a: 'x'.repeat(12) }));
    memory.remember(call('escaped', { a: '"'.repeat(12) }));
    expect(memory.get('fits')?.args).toEqual({ a: 'x'.repeat(12) });
    expect(memory.get('escaped')).toMatchObject({ args: undefined, argsDropped: 'too-large' });
  });

  it('marks arguments that are not JSON as such', () => {
    const memory = new CallMemory();
    memory.remember(call('bigint', { n: 10n }));
    expect(memory.get('bigint')).toMatchObject({ args: undefined, argsDropped: 'not-json' });
  });
});
