/**
 * A tool that keeps a breaker per target (origin, MCP server, browser, terminal): one row with
 * the worst state, how many targets are in which state and when the next probe is admitted,
 * expandable to its targets. The disclosure is a button named after the tool whose aria-expanded
 * says whether the targets show (Enter or Space toggles it);
 * a row with a single target starts open, more start closed. Closed rows keep their targets in
 * the page, hidden, so their cooldowns still refetch when they end.
 */
import { useId, useState } from 'react';
import { plural } from '../../../../shared/call-classes';
import { formatClock, formatCountdown } from '../../components/format';
import { hrefFor } from '../../router/hash-route';
import { BreakerStateBadge } from './BreakerStateBadge';
import { BreakerTargetRow } from './BreakerTargetRow';
import { type BreakerGroup, describeGroup, nextProbe } from './breaker-groups';

export function BreakerGroupCard(props: { group: BreakerGroup; fetchedAt: number; now: number }): React.JSX.Element {
  const { group, now } = props;
  const [open, setOpen] = useState(group.breakers.length === 1);
  const id = useId();
  const probe = nextProbe(group, props.fetchedAt);
  const rows = group.breakers.length;
  return (
    <section
      className={`card breaker-card breaker-group state-${group.worst}${rows > 1 ? ' breaker-group-wide' : ''}`}
      aria-labelledby={`${id}-tool`}
      data-testid={`breaker-group-${group.tool}`}
    >
      <header className="row spread">
        <h2 id={`${id}-tool`} className="row">
          <a href={hrefFor('tools', group.tool)}>
            <code>{group.tool}</code>
          </a>
          <BreakerStateBadge state={group.worst} />
          <span className="muted small" data-testid="group-summary">
            {describeGroup(group)}
          </span>
        </h2>
        <button
          type="button"
          className="secondary disclosure"
          aria-expanded={open}
          aria-controls={`${id}-targets`}
          aria-label={`${plural(rows, 'target')} of ${group.tool}`}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {plural(rows, 'target')}
        </button>
      </header>
      {probe !== undefined ? (
        <p className="muted small" data-testid="group-probe">
          {probe > now
            ? `Next probe admitted in ${formatCountdown(probe - now)} (at ${formatClock(probe).slice(0, 8)}).`
            : `Cooldown over at ${formatClock(probe).slice(0, 8)}: the next call to that target is its probe.`}
        </p>
      ) : null}
      <ul
        id={`${id}-targets`}
        className="breaker-targets"
        hidden={!open}
        aria-label={`Breakers of ${group.tool}, one per target`}
      >
        {group.breakers.map((v) => (
          <BreakerTargetRow key={v.toolId} view={v} fetchedAt={props.fetchedAt} now={now} />
        ))}
      </ul>
    </section>
  );
}
