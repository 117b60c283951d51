/** What a breaker's card and a target's row both show: failures in a row, cooldown, last error, timeline. */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { BreakerView } from '../../../../shared/contract';
import { queryKeys } from '../../state/query-keys';
import { BreakerCooldown } from './BreakerCooldown';
import { BreakerTimeline } from './BreakerTimeline';

export function BreakerDetails(props: {
  view: BreakerView;
  fetchedAt: number;
  now: number;
  children?: React.ReactNode;
}): React.JSX.Element {
  const { view } = props;
  const client = useQueryClient();
  const cooldownOver = useCallback(() => void client.invalidateQueries({ queryKey: queryKeys.breakers }), [client]);
  return (
    <>
      <p className="muted small">
        {view.consecutiveFailures} consecutive failure{view.consecutiveFailures === 1 ? '' : 's'}
      </p>
      <BreakerCooldown view={view} fetchedAt={props.fetchedAt} now={props.now} onOver={cooldownOver} />
      {view.lastError ? (
        <p className="wrap">
          <span className="muted">Last error:</span> {view.lastError}
        </p>
      ) : null}
      {props.children}
      <BreakerTimeline view={view} now={props.now} />
    </>
  );
}
