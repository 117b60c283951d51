/** A failed load: what failed, why, and a way to try again. */
import { describeError } from '../api/host-request-error';

export function ErrorState(props: { what: string; error: unknown; onRetry?: () => void }): React.JSX.Element {
  return (
    <div className="error-state" role="alert">
      <p className="error-title">Could not load {props.what}.</p>
      <p className="error-detail">{describeError(props.error)}</p>
      {props.onRetry ? (
        <button type="button" onClick={props.onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
