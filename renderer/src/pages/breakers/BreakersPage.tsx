/**
 * Breakers: one row per tool, worst first. A tool that keeps a breaker per target (network tools
 * per origin, the MCP client per server, browser tools per browser) shows its worst state and a
 * count of targets, and opens to one row per target; a tool with one breaker shows it as it is.
 * Only breakers that tripped (opened at least once) are listed; with the filter, also those that
 * never did. Open breakers count down to their probe locally, once a second; nothing is asked of
 * the host until an event arrives.
 */
import { useState } from 'react';
import { plural } from '../../../../shared/call-classes';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useNow } from '../../components/use-now';
import { useBreakers } from '../../state/queries';
import { BreakerCard } from './BreakerCard';
import { BreakerGroupCard } from './BreakerGroupCard';
import { groupBreakers, hasTargets, neverTripped } from './breaker-groups';
import '../../styles/breakers.css';

export { neverTripped } from './breaker-groups';

export function BreakersPage(): React.JSX.Element {
  const breakers = useBreakers();
  const now = useNow(1_000);
  const [showQuiet, setShowQuiet] = useState(false);
  return (
    <>
      <PageHeader
        title="Breakers"
        description={
          'A tool that keeps failing is cut off for a cooldown, then probed once; tools with targets ' +
          '(origins, servers, browsers) have one breaker per target. Reset closes a breaker at once.'
        }
        actions={
          <label className="row">
            <input type="checkbox" checked={showQuiet} onChange={(e) => setShowQuiet(e.target.checked)} /> Show breakers
            that never tripped
          </label>
        }
      />
      <QueryState query={breakers} what="breakers">
        {(views) => {
          const groups = groupBreakers(views, showQuiet);
          const quiet = views.filter(neverTripped).length;
          if (groups.length === 0)
            return (
              <EmptyState title="Every breaker is closed and none has tripped.">
                {quiet
                  ? `${plural(quiet, 'breaker has', 'breakers have')} counted failures without tripping; "Show ` +
                    `breakers that never tripped" lists ${quiet === 1 ? 'it' : 'them'}. `
                  : ''}
                Breakers open after 5 EXECUTION_FAILED, TIMEOUT or UNKNOWN failures of a tool (or of one of its targets)
                in a row.
              </EmptyState>
            );
          return (
            <div className="cards">
              {groups.map((g) =>
                hasTargets(g) ? (
                  <BreakerGroupCard key={g.tool} group={g} fetchedAt={breakers.dataUpdatedAt} now={now} />
                ) : (
                  g.breakers.map((v) => (
                    <BreakerCard key={v.toolId} view={v} fetchedAt={breakers.dataUpdatedAt} now={now} />
                  ))
                ),
              )}
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
