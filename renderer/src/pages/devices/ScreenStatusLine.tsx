/**
 * The two lines above a device's live screen: what is drawn (frames drawn per second, the phone's
 * size, the video's size and bit rate, how far the canvas is behind the phone when the phone draws a
 * latency probe, frames skipped) and which mode runs and why (H.264 from the phone's encoder, or
 * screenshots because screenrecord is missing or failed).
 */
import { formatAgo } from '../../components/format';
import type { DeviceScreenStats } from '../../components/screen/use-device-screen';
import { useNow } from '../../components/use-now';

const MODE_LABEL: Record<DeviceScreenStats['mode'], string> = {
  connecting: 'Connecting',
  starting: 'Starting',
  h264: 'H.264 video',
  screencap: 'Screenshots',
  failed: 'No picture',
};

const STILL_AFTER_MS = 3_000;

function mbit(bits: number): string {
  return `${(bits / 1_000_000).toFixed(bits < 10_000_000 ? 1 : 0)} Mbit/s`;
}

export function ScreenStatusLine(props: { stats: DeviceScreenStats; paused: boolean }): React.JSX.Element {
  const { stats } = props;
  const now = useNow(1_000, !props.paused);
  if (props.paused) return <p className="screen-status muted">Paused: no frames are requested.</p>;
  const still = stats.lastFrameAt !== undefined && now - stats.lastFrameAt > STILL_AFTER_MS;
  return (
    <div className="screen-status-block">
      {stats.framesDrawn === 0 ? (
        <p className="screen-status muted">Waiting for the first frame…</p>
      ) : (
        <p className="screen-status" data-testid="device-fps">
          <span className="mono" title="Frames drawn per second over the last second">
            {stats.fps.toFixed(1)} fps
          </span>
          {stats.display ? (
            <span className="muted">
              {' '}
              · {stats.display.width}×{stats.display.height}
            </span>
          ) : null}
          {stats.mode === 'h264' && stats.picture ? (
            <span className="muted">
              {' '}
              · video {stats.picture.width}×{stats.picture.height}
              {stats.bitRate ? ` at ${mbit(stats.bitRate)}` : ''}
            </span>
          ) : null}
          {stats.probe ? (
            <span className="muted" data-testid="device-latency">
              {' '}
              · {Math.round(stats.probe.latencyMs)} ms behind the phone (frame #{stats.probe.counter})
            </span>
          ) : null}
          {stats.skipped > 0 ? <span className="warn-text"> · {stats.skipped} frame(s) skipped to keep up</span> : null}
          {still && stats.lastFrameAt !== undefined ? (
            <span className="muted"> · still since {formatAgo(now - stats.lastFrameAt)}</span>
          ) : null}
          {stats.decodeErrors > 0 ? (
            <span className="warn-text" title={stats.lastError}>
              {' '}
              · {stats.decodeErrors} frame(s) could not be decoded
            </span>
          ) : null}
        </p>
      )}
      <p
        className={`screen-mode small ${stats.mode === 'failed' ? 'bad-text' : 'muted'}`}
        data-testid="screen-mode"
        data-mode={stats.mode}
        role={stats.mode === 'failed' ? 'alert' : undefined}
      >
        <strong>{MODE_LABEL[stats.mode]}</strong>
        {stats.reason ? `: ${stats.reason}` : ''}
      </p>
    </div>
  );
}
