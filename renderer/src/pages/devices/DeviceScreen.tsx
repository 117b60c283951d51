/**
 * A device's live screen: frames from `device-frame` events drawn on a canvas (scaled to fit,
 * aspect kept), the measured frame rate, and input: a click taps, a drag swipes, and with the
 * screen focused Enter/Space taps the centre and the arrow keys swipe.
 */
import { useCallback, useRef, useState } from 'react';
import { useApi } from '../../state/api-context';
import { type FrameSubscribe, useLiveFrames } from '../../components/use-live-frames';
import { type ScreenControl, useScreenStream } from '../../components/use-screen-stream';
import { FrameStatus } from '../../components/FrameStatus';
import { type Gesture, type PointerSample, classifyGesture, keyGesture } from './screen-gesture';

const SCREEN_HELP = 'Click to tap, drag to swipe. Focused: Enter or Space taps the centre, arrow keys swipe.';

export function DeviceScreen(props: { serial: string; onGesture(gesture: Gesture): void }): React.JSX.Element {
  const { serial, onGesture } = props;
  const api = useApi();
  const [live, setLive] = useState(true);
  const subscribe = useCallback<FrameSubscribe>(
    (onFrame) => api.onEvent((e) => e.type === 'device-frame' && e.serial === serial && onFrame(e.frame)),
    [api, serial],
  );
  const control = useCallback<ScreenControl>((on) => api.deviceScreen({ serial, on }), [api, serial]);
  const stream = useScreenStream(live ? control : undefined);
  const { canvasRef, drawnRef, stats } = useLiveFrames(live ? subscribe : undefined);
  const press = useRef<(PointerSample & { pointerId: number }) | undefined>(undefined);

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    press.current = { client: { x: e.clientX, y: e.clientY }, at: e.timeStamp, pointerId: e.pointerId };
    e.preventDefault();
  };
  const onPointerUp = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const down = press.current;
    press.current = undefined;
    const device = drawnRef.current;
    if (!down || down.pointerId !== e.pointerId || !device) return;
    const gesture = classifyGesture(
      down,
      { client: { x: e.clientX, y: e.clientY }, at: e.timeStamp },
      e.currentTarget.getBoundingClientRect(),
      device,
    );
    if (gesture) onGesture(gesture);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    const device = drawnRef.current;
    const gesture = device ? keyGesture(e.key, device) : undefined;
    if (!gesture) return;
    e.preventDefault();
    onGesture(gesture);
  };

  const ready = stats.framesDrawn > 0;
  return (
    <section className="card screen-card" aria-labelledby="screen-title">
      <div className="row spread">
        <h2 id="screen-title">Screen</h2>
        <button type="button" className="secondary" aria-pressed={!live} onClick={() => setLive(!live)}>
          {live ? 'Pause live screen' : 'Resume live screen'}
        </button>
      </div>
      <FrameStatus stats={stats} status={stream.status} onRetry={stream.retry} testId="device-fps" />
      <div className="screen-frame device-screen-frame">
        {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: the canvas is the phone's screen, an application surface taking taps, drags and keys */}
        <canvas
          ref={canvasRef}
          width={720}
          height={1280}
          className={`screen-canvas interactive${ready ? '' : ' waiting'}`}
          tabIndex={0}
          role="application"
          aria-roledescription="device screen"
          aria-label={`Live screen of ${serial}. ${SCREEN_HELP}`}
          aria-describedby="screen-help"
          data-testid="device-screen"
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (press.current = undefined)}
          onKeyDown={onKeyDown}
        />
      </div>
      <p id="screen-help" className="muted small">
        {SCREEN_HELP}
      </p>
    </section>
  );
}
