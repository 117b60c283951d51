/** A compact live/offline indicator for the header. */
import { useConnection } from '../state/api-context';

export function ConnectionDot(): React.JSX.Element {
  const { state } = useConnection();
  const label = state.status === 'open' ? 'Live' : state.status === 'connecting' ? 'Connecting' : 'Offline';
  return (
    <span className={`connection-dot ${state.status}`} role="status" aria-label={`Connection to host: ${label}`}>
      <span className="dot" aria-hidden="true" />
      {label}
    </span>
  );
}
