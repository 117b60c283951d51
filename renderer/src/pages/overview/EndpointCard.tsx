/** The MCP endpoint an agent connects to; each client brings its own token (Connect an MCP client). */
import type { HostInfo } from '../../../../shared/contract';
import { CopyButton } from '../../components/CopyButton';

export function EndpointCard(props: { info: HostInfo }): React.JSX.Element {
  const { info } = props;
  return (
    <section className="card" aria-labelledby="endpoint-title">
      <h2 id="endpoint-title">MCP endpoint</h2>
      <dl className="facts">
        <dt>URL</dt>
        <dd className="row">
          <code data-testid="mcp-url">{info.mcpUrl}</code>
          <CopyButton text={info.mcpUrl} label="Copy MCP URL" />
        </dd>
        <dt>Header</dt>
        <dd>
          <code>Authorization: Bearer &lt;the client’s token&gt;</code>
        </dd>
      </dl>
      <p className="muted small">
        Each client gets its own token: create one under “Connect an MCP client”, revoke it under “Client tokens”. A
        token calls tools and nothing else; approvals and settings stay with you, in this page.
      </p>
    </section>
  );
}
