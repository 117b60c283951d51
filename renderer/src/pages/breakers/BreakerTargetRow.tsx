/**
 * One target's breaker inside its tool's row: the target by the digest the host keeps and, while
 * the host runs, by the name it holds in memory for the person (BreakerTargetName), its state,
 * reset, cooldown and timeline.
 */
import type { BreakerView } from '../../../../shared/contract';
import { BreakerDetails } from './BreakerDetails';
import { BreakerResetButton, BreakerResetOutcome, useBreakerReset } from './BreakerReset';
import { BreakerStateBadge } from './BreakerStateBadge';
import { BreakerTargetName } from './BreakerTargetName';
import { breakerTarget } from './breaker-tool';

export function BreakerTargetRow(props: { view: BreakerView; fetchedAt: number; now: number }): React.JSX.Element {
  const { view } = props;
  const target = breakerTarget(view);
  const reset = useBreakerReset(view.toolId);
  const headingId = `breaker-${view.toolId}`;
  return (
    <li
      className={`breaker-target state-${view.state}`}
      aria-labelledby={headingId}
      data-testid={`breaker-${view.toolId}`}
    >
      <header className="row spread">
        <h3 id={headingId} className="row">
          {target !== undefined ? (
            <span title="A digest of the target: what the host keeps and stores of it">
              target <code>{target}</code>
            </span>
          ) : (
            <span>the whole tool</span>
          )}
          <BreakerStateBadge state={view.state} />
        </h3>
        <BreakerResetButton view={view} reset={reset} />
      </header>
      <BreakerTargetName view={view} />
      <BreakerDetails view={view} fetchedAt={props.fetchedAt} now={props.now}>
        <BreakerResetOutcome reset={reset} />
      </BreakerDetails>
    </li>
  );
}
