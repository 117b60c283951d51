/**
 * Copyable client configurations, one at a time, picked with a row of toggle buttons. Each client
 * gets a token of its own, created here by the person and named for it; the host keeps only its
 * digest, so the token can be revealed and copied only now, right after it was created. The person
 * also chooses the toolsets the client may use (the default profile is ticked to begin with).
 */
import { useState } from 'react';
import type { HostInfo, ToolsetSummary } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { CopyButton } from '../../components/CopyButton';
import { ToolsetPicker, defaultToolsets } from '../../components/ToolsetPicker';
import { useApi } from '../../state/api-context';
import { useClientTokenChange } from '../../state/client-token-change';
import { useToolsets } from '../../state/queries';
import { type ClientConfig, clientConfigs, maskToken } from './client-configs';

interface CreatedToken {
  name: string;
  token: string;
}

function NewToken(props: { created: CreatedToken; revealed: boolean; onReveal(r: boolean): void }) {
  const { created, revealed } = props;
  return (
    <div className="row" data-testid="new-token">
      <span>
        Token for <strong>{created.name}</strong>:
      </span>
      <code data-testid="mcp-token">{revealed ? created.token : maskToken(created.token)}</code>
      <button type="button" className="secondary" aria-pressed={revealed} onClick={() => props.onReveal(!revealed)}>
        {revealed ? 'Hide token' : 'Reveal token'}
      </button>
      <CopyButton text={created.token} label="Copy token" />
      <span className="muted small">Shown only now: Toolgate keeps its digest, not the token.</span>
    </div>
  );
}

function CreateToken(props: {
  config: ClientConfig;
  toolsets: readonly ToolsetSummary[];
  onCreated(c: CreatedToken): void;
}): React.JSX.Element {
  const api = useApi();
  const [name, setName] = useState(props.config.id);
  const [chosen, setChosen] = useState(() => defaultToolsets(props.toolsets));
  const create = useClientTokenChange(
    () => api.createClientToken({ name, toolsets: chosen }),
    (answer) => props.onCreated({ name: answer.client.name, token: answer.token }),
  );
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <ToolsetPicker
        toolsets={props.toolsets}
        value={chosen}
        onChange={setChosen}
        legend="Toolsets this client may use"
      />
      <label>
        Token name
        <input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" disabled={create.isPending || name.trim() === ''}>
        {create.isPending ? 'Creating…' : `Create a token for ${props.config.label}`}
      </button>
      {create.error ? (
        <span className="bad-text" role="alert">
          {describeError(create.error)}
        </span>
      ) : null}
    </form>
  );
}

export function ClientConfigs(props: { info: HostInfo }): React.JSX.Element {
  const { info } = props;
  const [created, setCreated] = useState<Record<string, CreatedToken>>({});
  const [revealed, setRevealed] = useState(false);
  const ids = clientConfigs(info);
  const [selected, setSelected] = useState(ids[0]?.id ?? '');
  const index = Math.max(
    0,
    ids.findIndex((c) => c.id === selected),
  );
  const id = ids[index]?.id ?? '';
  const mine = created[id];
  const real = clientConfigs(info, mine?.token)[index];
  const shown = clientConfigs(info, mine && !revealed ? maskToken(mine.token) : mine?.token)[index];
  const toolsets = useToolsets().data ?? [];
  return (
    <section className="card span-all" aria-labelledby="configs-title">
      <h2 id="configs-title">Connect an MCP client</h2>
      <div className="segmented" role="group" aria-label="Client">
        {ids.map((c) => (
          <button
            key={c.id}
            type="button"
            aria-pressed={c.id === id}
            onClick={() => {
              setSelected(c.id);
              setRevealed(false);
            }}
          >
            {c.label}
          </button>
        ))}
      </div>
      {real && shown ? (
        <>
          <p className="muted small">{shown.where}</p>
          {mine ? (
            <NewToken created={mine} revealed={revealed} onReveal={setRevealed} />
          ) : (
            <CreateToken
              key={`${id} ${toolsets.length}`}
              config={real}
              toolsets={toolsets}
              onCreated={(c) => {
                setCreated((all) => ({ ...all, [id]: c }));
                setRevealed(false);
              }}
            />
          )}
          <div className="code-with-copy">
            <pre
              className="json-block"
              tabIndex={0}
              aria-label={`${shown.label} configuration`}
              data-testid="client-config"
            >
              {shown.text}
            </pre>
            {mine || !real.needsToken ? (
              <CopyButton text={real.text} label={`Copy ${real.label} configuration`} />
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
