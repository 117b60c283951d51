/**
 * Which target a per-target breaker is about, for the person watching: the host keeps and stores
 * a breaker by its target's digest only, and holds the target's name in its memory while it runs,
 * for this page alone. After a restart (or once many other targets were used) only the digest is
 * known, and the row says so. A view made from a transition event, before the refetch, says
 * nothing yet.
 */
import type { BreakerView } from '../../../../shared/contract';

export const NAME_NOT_KEPT =
  'Its name is not kept: the host holds target names in memory only, so after a restart (or once many ' +
  'other targets were used) only this digest is known.';

export function BreakerTargetName(props: { view: Pick<BreakerView, 'target' | 'label'> }): React.JSX.Element | null {
  const { target, label } = props.view;
  if (target === undefined) return null;
  if (label === undefined)
    return (
      <p className="muted small breaker-target-name" data-testid="breaker-target-name">
        {NAME_NOT_KEPT}
      </p>
    );
  return (
    <p className="small breaker-target-name" data-testid="breaker-target-name">
      <span title="Held in the host's memory while it runs, for this page only: never stored, logged or exported">
        <code className="wrap">{label}</code>
      </span>
    </p>
  );
}
