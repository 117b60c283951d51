/**
 * A change to the client tokens (create one, change its toolsets, revoke it) as a mutation: once it
 * settles, whether it worked or not, the token list and the toolsets are fetched again, since each
 * toolset names the clients allowed it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';

export function useClientTokenChange<Answer>(change: () => Promise<Answer>, onSuccess?: (answer: Answer) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    ...(onSuccess ? { onSuccess } : {}),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.clientTokens });
      void client.invalidateQueries({ queryKey: queryKeys.toolsets });
    },
  });
}
