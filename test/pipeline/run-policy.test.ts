/**
 * Rule guarded (docs/architecture.md#run-policies, ToolRunPolicy + RetryClassifier): the five
 * presets and how a tool gets one, a name that is no preset refused when the tool is registered; which failures are
 * terminal and which may be retried; full-jitter exponential backoff.
 */
import { describe, expect, it } from 'vitest';
import { type Tool, type ToolErrorCode, ToolRegistry, UnknownRunPolicyError, failure } from '../../tools/core';
import {
  DEFAULT_BACKOFF,
  RUN_POLICIES,
  cancelledResult,
  defaultRetryClassifier,
  fullJitterDelay,
  inferRunPolicyName,
  runPolicyResolver,
  v2Policies,
} from '../../tools/core/pipeline';
import { MUTATING, READ_ONLY, fixtureTool } from './fixtures';

describe('run policy presets', () => {
  it('are quickRead 30 s/1 retry/120 rpm, network 90 s/2/30, mutating 60 s/0/none, selfBounded and v2 none', () => {
    const table = Object.values(RUN_POLICIES).map((p) => [
      p.name,
      p.timeoutMs,
      p.maxRetries,
      p.perMinute,
      p.endOnCancel,
    ]);
    expect(table).toEqual([
      ['quickRead', 30_000, 1, 120, true],
      ['network', 90_000, 2, 30, true],
      ['mutating', 60_000, 0, undefined, true],
      ['selfBounded', undefined, 0, undefined, false],
      ['v2', undefined, 0, undefined, false],
    ]);
  });
});

describe('the run policy resolver', () => {
  const resolve = runPolicyResolver();

  it('uses the preset a tool names', () => {
    expect(resolve(fixtureTool('a_tool', () => '', { runPolicy: 'selfBounded' })).name).toBe('selfBounded');
    expect(resolve(fixtureTool('b_tool', () => '', { runPolicy: 'network', annotations: MUTATING })).name).toBe(
      'network',
    );
  });

  it('is never asked about a name that is no preset: the registry refuses such a tool, alone or in a family', () => {
    const turbo = { ...fixtureTool('c_tool', () => ''), runPolicy: 'turbo' } as unknown as Tool;
    const registry = new ToolRegistry();
    expect(() => registry.register(turbo)).toThrow(UnknownRunPolicyError);
    expect(() => registry.register(turbo)).toThrow(
      "Tool 'c_tool' names the run policy 'turbo', which does not " +
        'exist; use one of quickRead, network, mutating, selfBounded, v2.',
    );
    expect(() => registry.registerAll([fixtureTool('d_tool', () => ''), turbo])).toThrow(UnknownRunPolicyError);
    expect(registry.size).toBe(0);
  });

  it('gives read-only open-world network and browser tools the network preset', () => {
    const openRead = { ...READ_ONLY, openWorldHint: true };
    expect(
      resolve(fixtureTool('web_fetch', () => '', { annotations: openRead, metadata: { category: 'network' } })).name,
    ).toBe('network');
    expect(
      resolve(fixtureTool('browser_snapshot', () => '', { annotations: openRead, metadata: { category: 'browser' } }))
        .name,
    ).toBe('network');
    expect(
      inferRunPolicyName(fixtureTool('ui_dump', () => '', { annotations: openRead, metadata: { category: 'ui' } })),
    ).toBe('quickRead');
  });

  it('gives other read-only tools quickRead and everything else mutating', () => {
    expect(resolve(fixtureTool('calculate', () => '', { annotations: READ_ONLY })).name).toBe('quickRead');
    expect(
      resolve(fixtureTool('write_file', () => '', { annotations: { ...MUTATING, idempotentHint: true } })).name,
    ).toBe('mutating');
  });

  it("takes changes to some presets' values and keeps the others", () => {
    const custom = runPolicyResolver({ quickRead: { timeoutMs: 5_000 }, mutating: { perMinute: 10 } });
    expect(custom(fixtureTool('e_tool', () => ''))).toEqual({ ...RUN_POLICIES.quickRead, timeoutMs: 5_000 });
    expect(custom(fixtureTool('f_tool', () => '', { annotations: MUTATING }))).toEqual({
      ...RUN_POLICIES.mutating,
      perMinute: 10,
    });
    expect(custom(fixtureTool('g_tool', () => '', { runPolicy: 'network' }))).toBe(RUN_POLICIES.network);
  });

  it('gives every tool the v2 preset when the pipeline is built without run policies', () => {
    expect(v2Policies(fixtureTool('h_tool', () => '', { runPolicy: 'network' }))).toBe(RUN_POLICIES.v2);
  });
});

describe('the retry classifier', () => {
  it('makes permission, argument, lookup, unsupported, circuit and rate errors terminal', () => {
    const terminal: ToolErrorCode[] = [
      'PERMISSION_DENIED',
      'INVALID_ARGUMENT',
      'NOT_FOUND',
      'UNSUPPORTED',
      'CIRCUIT_OPEN',
      'RATE_LIMITED',
    ];
    for (const code of terminal) expect(defaultRetryClassifier.isRetryable(failure(code, 'x').error), code).toBe(false);
  });

  it('makes timeouts, execution and unknown errors retryable', () => {
    for (const code of ['TIMEOUT', 'EXECUTION_FAILED', 'UNKNOWN'] as const)
      expect(defaultRetryClassifier.isRetryable(failure(code, 'x').error)).toBe(true);
  });

  it('makes a cancellation and a gate refusal terminal', () => {
    expect(defaultRetryClassifier.isRetryable(cancelledResult('t', 'while it was running').error)).toBe(false);
    expect(
      defaultRetryClassifier.isRetryable(failure('EXECUTION_FAILED', 'x', { data: { gate: 'environment' } }).error),
    ).toBe(false);
  });
});

describe('full-jitter backoff', () => {
  it('draws uniformly from [0, base·2^n) for the n-th retry counted from 0', () => {
    expect(DEFAULT_BACKOFF).toEqual({ baseMs: 200, maxMs: 10_000 });
    expect([0, 1, 2, 3].map((n) => fullJitterDelay(n, DEFAULT_BACKOFF, () => 0.999999))).toEqual([199, 399, 799, 1599]);
    expect(fullJitterDelay(2, DEFAULT_BACKOFF, () => 0)).toBe(0);
    expect(fullJitterDelay(2, DEFAULT_BACKOFF, () => 0.5)).toBe(400);
  });

  it('caps the window at the maximum', () => {
    expect(fullJitterDelay(20, { baseMs: 200, maxMs: 10_000 }, () => 0.999999)).toBe(9_999);
  });
});
