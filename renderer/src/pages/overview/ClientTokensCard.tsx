/**
 * The MCP client tokens: which clients can call tools, with which toolsets, how many sessions each
 * has open; change a client's toolsets (its open sessions lose removed ones at once) or revoke it.
 */
import { useState } from 'react';
import type { ClientToken, ToolsetSummary } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { QueryState } from '../../components/QueryState';
import { ToolsetPicker } from '../../components/ToolsetPicker';
import { useApi } from '../../state/api-context';
import { useClientTokenChange } from '../../state/client-token-change';
import { useClientTokens, useToolsets } from '../../state/queries';

function EditToolsets(props: {
  token: ClientToken;
  toolsets: readonly ToolsetSummary[];
  onDone(): void;
}): React.JSX.Element {
  const { token } = props;
  const api = useApi();
  const [chosen, setChosen] = useState<string[]>(token.toolsets);
  const save = useClientTokenChange(
    () => api.setClientToolsets({ id: token.id, toolsets: chosen }),
    (answer) => {
      if (answer.ok) props.onDone();
    },
  );
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <ToolsetPicker
        toolsets={props.toolsets}
        value={chosen}
        onChange={setChosen}
        legend={`Toolsets ${token.name} may use`}
      />
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save toolsets'}
      </button>
      <button type="button" className="secondary" onClick={props.onDone}>
        Cancel
      </button>
      {save.data && !save.data.ok ? <span className="bad-text">{save.data.message}</span> : null}
      {save.error ? <span className="bad-text">{describeError(save.error)}</span> : null}
    </form>
  );
}

function TokenRow(props: { token: ClientToken; toolsets: readonly ToolsetSummary[] }): React.JSX.Element {
  const { token } = props;
  const api = useApi();
  const [editing, setEditing] = useState(false);
  const revoke = useClientTokenChange(() => api.revokeClientToken({ id: token.id }));
  return (
    <li data-testid={`client-token-${token.name}`}>
      <div className="row spread">
        <span>
          <strong>{token.name}</strong> <code className="muted">…{token.hint}</code>{' '}
          <span className="muted small">
            {token.openSessions} open session{token.openSessions === 1 ? '' : 's'}
            {token.isDefault ? ' · the data dir’s token, read by the stdio bridge' : ''}
          </span>
          <br />
          <span className="small" data-testid={`client-toolsets-${token.name}`}>
            Toolsets: {token.toolsets.length > 0 ? token.toolsets.join(', ') : 'only the toolset tools'}
          </span>
        </span>
        <span className="row">
          <button
            type="button"
            className="secondary"
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
            aria-label={`Change the toolsets of ${token.name}`}
          >
            Toolsets…
          </button>
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
        </span>
      </div>
      {editing ? <EditToolsets token={token} toolsets={props.toolsets} onDone={() => setEditing(false)} /> : null}
      {revoke.error ? <span className="bad-text">{describeError(revoke.error)}</span> : null}
    </li>
  );
}

export function ClientTokensCard(): React.JSX.Element {
  const tokens = useClientTokens();
  const toolsets = useToolsets().data ?? [];
  return (
    <section className="card" aria-labelledby="client-tokens-title">
      <h2 id="client-tokens-title">Client tokens</h2>
      <QueryState query={tokens} what="client tokens">
        {(list) => (
          <ul className="plain-list" aria-label="Client tokens">
            {list.map((t) => (
              <TokenRow key={t.id} token={t} toolsets={toolsets} />
            ))}
          </ul>
        )}
      </QueryState>
      <p className="muted small">
        A revoked token is refused at once and its sessions close; a toolset taken away leaves its open sessions at
        once.
      </p>
    </section>
  );
}
