/**
 * The toolsets: what each holds, what it costs a client in every request (its bytes in tools/list),
 * whether it is in the default profile, and which clients may use it.
 */
import type { ToolsetSummary } from '../../../../shared/contract';
import { formatBytes } from '../../components/byte-size';

export function ToolsetTable(props: { toolsets: readonly ToolsetSummary[] }): React.JSX.Element {
  const size = formatBytes(props.toolsets.reduce((sum, t) => sum + t.bytes, 0));
  return (
    <section aria-labelledby="toolsets-title" className="card">
      <h2 id="toolsets-title">Toolsets</h2>
      <p className="muted small">
        {'A client lists only the tools of its toolsets, chosen per client on the Overview page; ' +
          `all of them together are ${size} of tools/list.`}
      </p>
      <table className="data-table" aria-label="Toolsets">
        <thead>
          <tr>
            <th scope="col">Toolset</th>
            <th scope="col">Tools</th>
            <th scope="col">Size</th>
            <th scope="col">Clients</th>
          </tr>
        </thead>
        <tbody>
          {props.toolsets.map((t) => (
            <tr key={t.name} data-testid={`toolset-${t.name}`}>
              <th scope="row">
                <code>{t.name}</code>
                {t.alwaysOn ? <span className="muted small"> · always on</span> : null}
                {t.inDefaultProfile && !t.alwaysOn ? <span className="muted small"> · default</span> : null}
                <br />
                <span className="muted small">{t.summary}</span>
              </th>
              <td>{t.toolIds.length}</td>
              <td>{formatBytes(t.bytes)}</td>
              <td>{t.alwaysOn ? 'every client' : t.clients.length > 0 ? t.clients.join(', ') : 'none'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
