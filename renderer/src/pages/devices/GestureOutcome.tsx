/**
 * The last tap or swipe sent from the live screen and how the pipeline answered: the same
 * ui_tap / ui_swipe call an agent would make, so a denied approval, an open breaker or a device
 * error shows here with its code and hint.
 */
import type { CallOutcome } from '../../../../shared/contract';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { ErrorState } from '../../components/ErrorState';
import { hrefFor } from '../../router/hash-route';
import { type Gesture, describeGesture } from './screen-gesture';

export function GestureOutcome(props: {
  gesture: Gesture | undefined;
  pending: boolean;
  outcome: CallOutcome | undefined;
  error: unknown;
}): React.JSX.Element {
  const { gesture } = props;
  return (
    <section className="card" aria-labelledby="gesture-title" data-testid="gesture-outcome">
      <h2 id="gesture-title">Last action</h2>
      <div aria-live="polite">
        {!gesture ? (
          <p className="muted">
            Click the screen to tap, drag to swipe. Each goes through the pipeline as ui_tap / ui_swipe, traced and
            gated like an agent's call.
          </p>
        ) : (
          <>
            <p>
              <strong>{describeGesture(gesture)}</strong>{' '}
              <span className="muted">({gesture.kind === 'tap' ? 'ui_tap' : 'ui_swipe'})</span>
            </p>
            {props.pending ? (
              <p className="muted">
                Sending… A call that needs approval waits on the <a href={hrefFor('approvals')}>Approvals</a> page.
              </p>
            ) : null}
            {!props.pending && props.error ? (
              <ErrorState what={`the ${gesture.kind} result`} error={props.error} />
            ) : null}
            {!props.pending && props.outcome ? <CallOutcomeView outcome={props.outcome} /> : null}
          </>
        )}
      </div>
    </section>
  );
}
