/** The MCP client tokens: which clients can call tools, how many sessions each has open, and revoke. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientToken } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { QueryState } from '../../components/QueryState';
import { useApi } from '../../state/api-context';
import { useClientTokens } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';

function TokenRow(props: { token: ClientToken }): React.JSX.Element {
  const { token } = props;
  const api = useApi();
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api.revokeClientToken({ id: token.id }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.clientTokens }),
  });
  return (
    <li className="row spread" data-testid={`client-token-${token.name}`}>
      <span>
        <strong>{token.name}</strong> <code className="muted">…{token.hint}</code>{' '}
        <span className="muted small">
          {token.openSessions} open session{token.openSessions === 1 ? '' : 's'}
          {token.isDefault ? ' · the data dir’s token, read by the stdio bridge' : ''}
        </span>
      </span>
      {token.isDefault ? null : (
        <button
          type="button"
          className="secondary"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate()}
          aria-label={`Revoke the token of ${token.name}`}
        >
          {revoke.isPending ? 'Revoking…' : 'Revoke'}
        </button>
      )}
      {revoke.error ? <span className="bad-text">{describeError(revoke.error)}</span> : null}
    </li>
  );
}

export function ClientTokensCard(): React.JSX.Element {
  const tokens = useClientTokens();
  return (
    <section className="card" aria-labelledby="client-tokens-title">
      <h2 id="client-tokens-title">Client tokens</h2>
      <QueryState query={tokens} what="client tokens">
        {(list) => (
          <ul className="plain-list" aria-label="Client tokens">
            {list.map((t) => (
              <TokenRow key={t.id} token={t} />
            ))}
          </ul>
        )}
      </QueryState>
      <p className="muted small">A revoked token is refused at once and its sessions close.</p>
    </section>
  );
}
