/**
 * The loading / error / empty / data states of one query, so no page ever renders a blank panel.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describeError } from '../api/host-request-error';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';
import { Loading } from './Loading';

export interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  what: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

export function QueryState<T>(props: QueryStateProps<T>): React.JSX.Element {
  const { query } = props;
  if (query.isPending) return <Loading what={props.what} />;
  if (query.data === undefined)
    return <ErrorState what={props.what} error={query.error} onRetry={() => void query.refetch()} />;
  // A failed refresh keeps what was shown, and says it may be out of date.
  const stale = query.isError ? (
    <p className="field-error" role="alert">
      Showing the last {props.what} loaded; refreshing failed: {describeError(query.error)}
    </p>
  ) : null;
  if (props.isEmpty?.(query.data))
    return (
      <>
        {stale}
        {props.empty ?? <EmptyState title={`No ${props.what} yet.`} />}
      </>
    );
  return (
    <>
      {stale}
      {props.children(query.data)}
    </>
  );
}
