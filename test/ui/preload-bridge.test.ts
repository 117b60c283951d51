/**
 * Rule: inside Electron the renderer talks to the host through the preload's named methods, with
 * the same contract parsing as over HTTP: a complete bridge is used, a partial one is not (the page
 * falls back to HTTP), a host answer that breaks the contract is refused, and IPC's wrapping of an
 * error message is removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostEvent, METHOD_NAMES, contract } from '../../shared/contract';
import { ScreenRequest, type ScreenStatus, encodeFrame } from '../../shared/screen-wire';
import { HostRequestError } from '../../renderer/src/api/host-request-error';
import { findPreloadBridge } from '../../renderer/src/api/preload-bridge';
import { type Host, startHost } from '../../tools/host/host';

process.env.TOOLGATE_QUIET = '1';

/**
 * What electron/preload exposes: each method invokes the host's handler with parsed input; screens as the screen bridge
 * sends them.
 */
function preloadOver(host: Host): Record<string, unknown> {
  const exposed: Record<string, unknown> = {
    onEvent: (listener: (e: HostEvent) => void) => {
      const sub = host.events.on(listener);
      return () => sub.dispose();
    },
    openScreen: (request: unknown, onMessage: (message: unknown) => void) => {
      const viewer = host.screens!.watch(ScreenRequest.parse(request), {
        status: (status) => onMessage({ status }),
        frame: (frame) => {
          onMessage({ frame: encodeFrame(frame) });
          return true;
        },
      });
      return { ack: (seq: number) => viewer.ack(seq), close: () => viewer.close() };
    },
  };
  for (const m of METHOD_NAMES)
    exposed[m] = async (input: unknown) => (host.api[m] as (i: unknown) => unknown)(contract[m].input.parse(input));
  return exposed;
}

describe('the Electron preload bridge', () => {
  let host: Host;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bridge-'));
    host = await startHost({ dataDir, port: 0 });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is not used when the preload lacks a contract method (the page uses HTTP instead)', () => {
    const partial = preloadOver(host);
    delete partial.resetBreaker;
    expect(findPreloadBridge({ toolgate: partial })).toBeUndefined();
    expect(findPreloadBridge({})).toBeUndefined();
  });

  it('refuses an answer that does not match the contract', async () => {
    const broken = { ...preloadOver(host), info: async () => ({ version: 1 }) };
    const bridge = findPreloadBridge({ toolgate: broken })!;
    await expect(bridge.call('info', {})).rejects.toThrow(/does not match the contract/);
  });

  it("strips IPC's wrapping from an error message", async () => {
    const failing = {
      ...preloadOver(host),
      breakers: async () =>
        Promise.reject(new Error("Error invoking remote method 'toolgate:breakers': Error: store closed")),
    };
    const error = await findPreloadBridge({ toolgate: failing })!
      .call('breakers', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostRequestError);
    expect((error as HostRequestError).message).toBe('store closed');
  });

  it('calls the host and delivers its events through the named methods', async () => {
    const bridge = findPreloadBridge({ toolgate: preloadOver(host) })!;
    const events: HostEvent[] = [];
    const off = bridge.onEvent((e) => events.push(e));
    const outcome = await bridge.call('callTool', {
      toolId: 'version_compare',
      args: { operation: 'compare', a: '1.2.0', b: '1.10.0' },
    });
    off();
    expect(outcome.ok).toBe(true);
    expect(events.some((e) => e.type === 'span' && e.span.toolId === 'version_compare')).toBe(true);
    const spans = await bridge.call('listSpans', { toolId: 'version_compare', limit: 10 });
    expect(spans).toHaveLength(1);
  });

  it('opens a device screen via the preload, its status parsed by the contract; refuses a broken one', async () => {
    const statuses: ScreenStatus[] = [];
    const listener = { status: (s: ScreenStatus) => statuses.push(s), frame: () => undefined, closed: () => undefined };
    const bridge = findPreloadBridge({ toolgate: preloadOver(host) })!;
    bridge.openScreen({ serial: 'no-such-phone', maxWidth: 360, maxHeight: 640 }, listener).close();
    expect(statuses).toEqual([
      expect.objectContaining({ mode: 'failed', reason: "No device 'no-such-phone' is attached." }),
    ]);
    const broken = {
      ...preloadOver(host),
      openScreen: (_r: unknown, onMessage: (m: unknown) => void) => {
        onMessage({ status: { type: 'status', mode: 'sideways' } });
        return { ack: () => undefined, close: () => undefined };
      },
    };
    findPreloadBridge({ toolgate: broken })!.openScreen({ serial: 'x', maxWidth: 16, maxHeight: 16 }, listener);
    expect(statuses).toHaveLength(1);
  });
});
