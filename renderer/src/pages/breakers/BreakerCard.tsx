/** A tool-wide breaker (a tool with no targets): state, cooldown countdown, last error, reset, and its timeline. */
import type { BreakerView } from '../../../../shared/contract';
import { hrefFor } from '../../router/hash-route';
import { BreakerDetails } from './BreakerDetails';
import { BreakerResetButton, BreakerResetOutcome, useBreakerReset } from './BreakerReset';
import { BreakerStateBadge } from './BreakerStateBadge';

export function BreakerCard(props: { view: BreakerView; fetchedAt: number; now: number }): React.JSX.Element {
  const { view } = props;
  const reset = useBreakerReset(view.toolId);
  return (
    <section
      className={`card breaker-card state-${view.state}`}
      aria-labelledby={`breaker-${view.toolId}`}
      data-testid={`breaker-${view.toolId}`}
    >
      <header className="row spread">
        <h2 id={`breaker-${view.toolId}`} className="row">
          <a href={hrefFor('tools', view.toolId)}>
            <code>{view.toolId}</code>
          </a>
          <BreakerStateBadge state={view.state} />
        </h2>
        <BreakerResetButton view={view} reset={reset} />
      </header>
      <BreakerDetails view={view} fetchedAt={props.fetchedAt} now={props.now}>
        <BreakerResetOutcome reset={reset} />
      </BreakerDetails>
    </section>
  );
}
