/**
 * Turns a live screen on while a page shows it and off when the page is left or unmounted.
 * The on/off calls run one after another app-wide: leaving and coming back quickly (or StrictMode's
 * double effect) must reach the host as off-then-on, never reordered by parallel requests. After
 * the event stream reconnects the screen is asked for again, since the host may have stopped it.
 */
import { useEffect, useState } from 'react';
import { describeError } from '../api/host-request-error';
import { useConnection } from '../state/api-context';

export type ScreenControl = (on: boolean) => Promise<{ ok: boolean; message: string }>;

export type StreamStatus =
  | { state: 'off' }
  | { state: 'starting' }
  | { state: 'on'; message: string }
  | { state: 'failed'; message: string };

let chain: Promise<unknown> = Promise.resolve();

function inOrder<T>(task: () => Promise<T>): Promise<T> {
  const next = chain.then(task, task);
  chain = next.catch(() => undefined);
  return next;
}

export function useScreenStream(control: ScreenControl | undefined): { status: StreamStatus; retry(): void } {
  const [status, setStatus] = useState<StreamStatus>({ state: 'off' });
  const [attempt, setAttempt] = useState(0);
  const [epoch, setEpoch] = useState(0);
  const { state: connection } = useConnection();

  useEffect(() => {
    if (connection.status === 'open' && connection.reconnected) setEpoch(connection.since);
  }, [connection]);

  // A retry (attempt) or a reconnected host (epoch) restarts the stream, so both are dependencies the body never reads.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt and epoch are triggers
  useEffect(() => {
    if (!control) {
      setStatus({ state: 'off' });
      return;
    }
    let current = true;
    setStatus({ state: 'starting' });
    inOrder(() => control(true)).then(
      (r) => current && setStatus(r.ok ? { state: 'on', message: r.message } : { state: 'failed', message: r.message }),
      (e: unknown) => current && setStatus({ state: 'failed', message: describeError(e) }),
    );
    return () => {
      current = false;
      inOrder(() => control(false)).catch(() => undefined);
    };
  }, [control, attempt, epoch]);

  return { status, retry: () => setAttempt((n) => n + 1) };
}
