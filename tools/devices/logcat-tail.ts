/**
 * A logcat tail for the UI's log pane: `logcat -v threadtime` followed over the persistent adb
 * client, delivered as batches of whole lines. When the device drops, the tail reports it and
 * reopens after a pause, until disposed.
 */
import type { Duplex } from 'node:stream';
import type { Disposable } from '../core/disposable';
import { type Clock, sleep, systemClock } from '../core/pipeline/clock';
import type { ToolCallError } from '../core/result';
import type { DeviceManager } from './manager/device-manager';

export interface LogcatTailOptions {
  onError?: (error: ToolCallError) => void;
  retryMs?: number;
  clock?: Clock;
}

export function tailLogcat(
  manager: DeviceManager,
  serial: string,
  onLines: (lines: string[]) => void,
  opts: LogcatTailOptions = {},
): Disposable {
  const clock = opts.clock ?? systemClock;
  const stop = new AbortController();
  let stream: Duplex | undefined;

  const follow = (s: Duplex) =>
    new Promise<void>((resolve) => {
      let partial = '';
      s.setEncoding('utf8');
      s.on('data', (chunk: string) => {
        const text = partial + chunk;
        const cut = text.lastIndexOf('\n');
        if (cut < 0) {
          partial = text;
          return;
        }
        partial = text.slice(cut + 1);
        const lines = text
          .slice(0, cut)
          .split('\n')
          .map((l) => l.replace(/\r$/, ''))
          .filter((l) => l !== '' && !l.startsWith('--------- beginning of'));
        if (lines.length === 0) return;
        try {
          onLines(lines);
        } catch {
          // A failing consumer must not stop the tail.
        }
      });
      s.once('close', () => resolve());
      s.once('end', () => resolve());
      s.once('error', () => resolve());
    });

  const loop = async () => {
    while (!stop.signal.aborted) {
      try {
        stream = await manager.openStream(serial, 'logcat -v threadtime', { timeoutMs: 10_000, signal: stop.signal });
        if (stop.signal.aborted) break;
        await follow(stream);
      } catch (e) {
        if (stop.signal.aborted) break;
        opts.onError?.(e as ToolCallError);
      }
      await sleep(clock, opts.retryMs ?? 1_000, stop.signal);
    }
    stream?.destroy();
  };
  void loop();

  return {
    dispose() {
      stop.abort();
      stream?.destroy();
    },
  };
}
