/**
 * A device's live screen: the phone's own H.264 (or screenshots when it cannot stream) drawn on a
 * canvas scaled to fit with the aspect kept (use-device-screen.ts), which mode runs and why, and
 * input: a click taps, a drag swipes, and with the screen focused Enter/Space taps the centre and the
 * arrow keys swipe. A pointer maps through the drawn picture to the device's pixels, whatever the
 * scale, and whatever the rotation the host reports.
 */
import { useRef, useState } from 'react';
import { useApi } from '../../state/api-context';
import { useDeviceScreen } from '../../components/screen/use-device-screen';
import { type Gesture, type PointerSample, classifyGesture, containedRect, keyGesture } from './screen-gesture';
import { ScreenStatusLine } from './ScreenStatusLine';

const SCREEN_HELP = 'Click to tap, drag to swipe. Focused: Enter or Space taps the centre, arrow keys swipe.';

export function DeviceScreen(props: { serial: string; onGesture(gesture: Gesture): void }): React.JSX.Element {
  const { serial, onGesture } = props;
  const api = useApi();
  const [live, setLive] = useState(true);
  const { canvasRef, geometryRef, stats } = useDeviceScreen(api.openScreen, serial, live);
  const press = useRef<(PointerSample & { pointerId: number }) | undefined>(undefined);

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    // Focus for the keys, without scrolling: a scroll between press and release would move the tap.
    e.currentTarget.focus({ preventScroll: true });
    press.current = { client: { x: e.clientX, y: e.clientY }, at: e.timeStamp, pointerId: e.pointerId };
    e.preventDefault();
  };
  const onPointerUp = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const down = press.current;
    press.current = undefined;
    const geometry = geometryRef.current;
    if (!down || down.pointerId !== e.pointerId || !geometry) return;
    const rect = e.currentTarget.getBoundingClientRect();
    // The canvas shows the picture (object-fit: contain); the phone's screen fills the picture, or a letterboxed part
    // of it.
    const picture = containedRect(
      { left: rect.left, top: rect.top, width: rect.width, height: rect.height },
      geometry.picture,
    );
    const gesture = classifyGesture(
      down,
      { client: { x: e.clientX, y: e.clientY }, at: e.timeStamp },
      picture,
      geometry.device,
    );
    if (gesture) onGesture(gesture);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    const device = geometryRef.current?.device;
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
      <ScreenStatusLine stats={stats} paused={!live} />
      <div className="screen-frame device-screen-frame">
        {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: the canvas is the phone's screen, an
            application surface taking taps, drags and keys */}
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
          data-mode={stats.mode}
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
