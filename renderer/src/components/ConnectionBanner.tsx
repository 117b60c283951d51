/**
 * Says so when the live connection to the host is down, when it will try again, and offers to try
 * now. Silent while connected, and during the first second of the initial connect.
 */
import { useConnection } from '../state/api-context';
import { formatCountdown } from './format';
import { useNow } from './use-now';

export function ConnectionBanner(): React.JSX.Element | null {
  const { state, retryNow } = useConnection();
  const now = useNow(1_000, state.status !== 'open');
  if (state.status === 'open') return null;
  if (state.status === 'connecting' && state.attempt === 0) return null;
  return (
    <div className="banner banner-bad" role="alert" data-testid="disconnected-banner">
      <strong>Disconnected from the Toolgate host.</strong>{' '}
      {state.status === 'closed' ? (
        <>
          Live updates are paused ({state.reason}); reconnecting in {formatCountdown(state.retryAt - now)}.{' '}
          <button type="button" className="secondary" onClick={retryNow}>
            Reconnect now
          </button>
        </>
      ) : (
        <>Reconnecting…</>
      )}
    </div>
  );
}
