/**
 * In the headless host's UI, lets the approver turn on system notifications for new requests
 * (browsers only ask for the permission after a click). Hidden in Electron, which notifies itself,
 * and in browsers without notifications.
 */
import { useState } from 'react';
import { useInfo } from '../../state/queries';

export function BrowserAlertsToggle(): React.JSX.Element | null {
  const mode = useInfo().data?.mode;
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (mode !== 'headless' || !supported) return null;
  if (permission === 'granted') {
    return (
      <p className="muted small" data-testid="browser-alerts">
        Browser alerts are on: a new request raises a notification while this tab is in the background.
      </p>
    );
  }
  if (permission === 'denied') {
    return (
      <p className="muted small" data-testid="browser-alerts">
        Browser alerts are blocked for this page; allow notifications in the browser's site settings to be alerted while
        this tab is in the background.
      </p>
    );
  }
  return (
    <p className="small" data-testid="browser-alerts">
      <button
        type="button"
        className="secondary"
        onClick={() => void Notification.requestPermission().then(setPermission)}
      >
        Alert me in this browser
      </button>{' '}
      <span className="muted">when a call waits while this tab is in the background.</span>
    </p>
  );
}
