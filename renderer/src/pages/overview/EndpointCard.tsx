/** The MCP endpoint an agent connects to, with its bearer token masked until revealed. */
import type { HostInfo } from '../../../../shared/contract';
import { CopyButton } from '../../components/CopyButton';
import { maskToken } from './client-configs';

export function EndpointCard(props: {
  info: HostInfo;
  revealed: boolean;
  onReveal(revealed: boolean): void;
}): React.JSX.Element {
  const { info, revealed } = props;
  return (
    <section className="card" aria-labelledby="endpoint-title">
      <h2 id="endpoint-title">MCP endpoint</h2>
      <dl className="facts">
        <dt>URL</dt>
        <dd className="row">
          <code data-testid="mcp-url">{info.mcpUrl}</code>
          <CopyButton text={info.mcpUrl} label="Copy MCP URL" />
        </dd>
        <dt>Token</dt>
        <dd className="row">
          <code data-testid="mcp-token">{revealed ? info.token : maskToken(info.token)}</code>
          <button type="button" className="secondary" aria-pressed={revealed} onClick={() => props.onReveal(!revealed)}>
            {revealed ? 'Hide token' : 'Reveal token'}
          </button>
          <CopyButton text={info.token} label="Copy token" />
        </dd>
        <dt>Header</dt>
        <dd>
          <code>Authorization: Bearer {revealed ? info.token : maskToken(info.token)}</code>
        </dd>
      </dl>
      <p className="muted small">
        Anyone with the token can call every tool through this host. It is stored in the data dir; keep it out of shared
        files.
      </p>
    </section>
  );
}
