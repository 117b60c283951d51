/**
 * Breakers: every breaker that tripped (opened at least once), worst first; with the filter, also
 * those that never tripped (closed, some failures counted or none). Open breakers count down to
 * their probe locally, once a second; nothing is asked of the host until an event arrives.
 */
import { useState } from 'react';
import type { BreakerView } from '../../../../shared/contract';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useNow } from '../../components/use-now';
import { useBreakers } from '../../state/queries';
import { BreakerCard } from './BreakerCard';
import { plural } from '../../../../shared/call-classes';

const ORDER: Record<BreakerView['state'], number> = { OPEN: 0, HALF_OPEN: 1, CLOSED: 2 };

/** Never opened: closed now and no transition to OPEN on record (failures may have been counted). */
export function neverTripped(v: Pick<BreakerView, 'state' | 'transitions'>): boolean {
  return v.state === 'CLOSED' && !v.transitions.some((t) => t.to === 'OPEN');
}

export function BreakersPage(): React.JSX.Element {
  const breakers = useBreakers();
  const now = useNow(1_000);
  const [showQuiet, setShowQuiet] = useState(false);
  return (
    <>
      <PageHeader
        title="Breakers"
        description="A tool that keeps failing is cut off for a cooldown, then probed once. Reset closes a breaker at once."
        actions={
          <label className="row">
            <input type="checkbox" checked={showQuiet} onChange={(e) => setShowQuiet(e.target.checked)} /> Show breakers
            that never tripped
          </label>
        }
      />
      <QueryState query={breakers} what="breakers">
        {(views) => {
          const shown = views
            .filter((v) => showQuiet || !neverTripped(v))
            .sort(
              (a, b) =>
                ORDER[a.state] - ORDER[b.state] ||
                b.consecutiveFailures - a.consecutiveFailures ||
                a.toolId.localeCompare(b.toolId),
            );
          const quiet = views.filter(neverTripped).length;
          if (shown.length === 0)
            return (
              <EmptyState title="Every breaker is closed and none has tripped.">
                {quiet
                  ? `${plural(quiet, 'breaker has', 'breakers have')} counted failures without tripping; "Show breakers that never tripped" lists ${quiet === 1 ? 'it' : 'them'}. `
                  : ''}
                Breakers open after 5 EXECUTION_FAILED, TIMEOUT or UNKNOWN failures of a tool in a row.
              </EmptyState>
            );
          return (
            <div className="cards">
              {shown.map((v) => (
                <BreakerCard key={v.toolId} view={v} fetchedAt={breakers.dataUpdatedAt} now={now} />
              ))}
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
