/**
 * One line above a live screen: whether the stream is on, the frames it really shows (the rate
 * over the last second while the picture changes, "still" while it does not: a page that is not
 * repainting sends no frames, which is not a stalled mirror), the frame size, and since when the
 * picture has been still.
 */
import { formatAgo } from './format';
import type { LiveFrameStats } from './use-live-frames';
import type { StreamStatus } from './use-screen-stream';
import { useNow } from './use-now';

/** A still screen is normal (nothing changed); past this it is worth saying. */
const STILL_AFTER_MS = 3_000;

export function FrameStatus(props: {
  stats: LiveFrameStats;
  status: StreamStatus;
  onRetry(): void;
  testId: string;
}): React.JSX.Element {
  const { stats, status } = props;
  const now = useNow(1_000, status.state === 'on');
  if (status.state === 'off') return <p className="screen-status muted">Paused: no frames are requested.</p>;
  if (status.state === 'failed') {
    return (
      <p className="screen-status bad-text" role="alert">
        The live screen did not start: {status.message}{' '}
        <button type="button" className="secondary" onClick={props.onRetry}>
          Try again
        </button>
      </p>
    );
  }
  if (stats.framesDrawn === 0)
    return (
      <p className="screen-status muted">
        {status.state === 'starting' ? 'Starting the live screen…' : 'Waiting for the first frame…'}
      </p>
    );
  const still = stats.lastFrameAt !== undefined && now - stats.lastFrameAt > STILL_AFTER_MS;
  return (
    <p className="screen-status" data-testid={props.testId}>
      <span className="mono" title="Frames drawn per second over the last second">
        {stats.fps > 0 ? `${stats.fps.toFixed(1)} fps` : 'Still picture'}
      </span>
      <span className="muted" title="Frames drawn since the mirror started">
        {' '}
        · {stats.framesDrawn} frame{stats.framesDrawn === 1 ? '' : 's'} shown
      </span>
      {stats.sourceFps > 0 && stats.fps > 0 ? (
        <span className="muted"> · host captures {stats.sourceFps.toFixed(0)} fps</span>
      ) : null}
      {stats.width > 0 ? (
        <span className="muted">
          {' '}
          · {stats.width}×{stats.height}
        </span>
      ) : null}
      {still && stats.lastFrameAt !== undefined ? (
        <span className="muted"> · still since {formatAgo(now - stats.lastFrameAt)}</span>
      ) : null}
      {stats.decodeErrors > 0 ? (
        <span className="warn-text"> · {stats.decodeErrors} frame(s) could not be decoded</span>
      ) : null}
    </p>
  );
}
