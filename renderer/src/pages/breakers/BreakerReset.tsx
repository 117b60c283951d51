/** Reset for one breaker (its key): the button, and what went wrong if the host did not reset it. */
import { type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BreakerView } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';

type Reset = UseMutationResult<{ ok: boolean }, Error, void>;

export function useBreakerReset(key: string): Reset {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.resetBreaker({ toolId: key }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.breakers }),
  });
}

export function BreakerResetButton(props: { view: BreakerView; reset: Reset }): React.JSX.Element {
  const { view, reset } = props;
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => reset.mutate()}
      disabled={reset.isPending || (view.state === 'CLOSED' && view.consecutiveFailures === 0)}
      aria-label={`Reset the breaker of ${view.toolId}`}
    >
      {reset.isPending ? 'Resetting…' : 'Reset'}
    </button>
  );
}

export function BreakerResetOutcome(props: { reset: Reset }): React.JSX.Element | null {
  const { reset } = props;
  if (reset.isError)
    return (
      <p className="field-error" role="alert">
        Reset failed: {describeError(reset.error)}
      </p>
    );
  if (reset.data && !reset.data.ok)
    return (
      <p className="field-error" role="alert">
        The host did not reset this breaker.
      </p>
    );
  return null;
}
