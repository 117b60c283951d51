/**
 * The mirrored page: frames from `browser-frame` events (the DevTools screencast) drawn on a
 * canvas, scaled to fit with the aspect kept, with the measured frame rate. View only: the agent
 * drives the page; the person watches.
 */
import { useCallback, useState } from 'react';
import { FrameStatus } from '../../components/FrameStatus';
import { type FrameSubscribe, useLiveFrames } from '../../components/use-live-frames';
import { type ScreenControl, useScreenStream } from '../../components/use-screen-stream';
import { useApi } from '../../state/api-context';

export function BrowserMirror(props: { highlight: boolean }): React.JSX.Element {
  const api = useApi();
  const [frameUrl, setFrameUrl] = useState<string | undefined>(undefined);
  const subscribe = useCallback<FrameSubscribe>(
    (onFrame) =>
      api.onEvent((e) => {
        if (e.type !== 'browser-frame') return;
        // A no-op when the URL is unchanged: React bails out of same-value updates.
        setFrameUrl(e.url);
        onFrame(e.frame);
      }),
    [api],
  );
  const control = useCallback<ScreenControl>((on) => api.browserScreen({ on }), [api]);
  const stream = useScreenStream(control);
  const { canvasRef, stats } = useLiveFrames(subscribe);
  return (
    <section
      className={`card screen-card${props.highlight ? ' attention' : ''}`}
      aria-labelledby="mirror-title"
      data-testid="browser-mirror"
    >
      <h2 id="mirror-title">Live page</h2>
      <FrameStatus stats={stats} status={stream.status} onRetry={stream.retry} testId="browser-fps" />
      <div className="screen-frame browser-screen-frame">
        <canvas
          ref={canvasRef}
          width={1280}
          height={720}
          className={`screen-canvas${stats.framesDrawn > 0 ? '' : ' waiting'}`}
          role="img"
          aria-label={`Live mirror of the browser page${frameUrl ? ` ${frameUrl}` : ''} (view only)`}
          data-testid="browser-screen"
        />
      </div>
      {frameUrl ? <p className="muted small mono wrap">Showing {frameUrl}</p> : null}
    </section>
  );
}
