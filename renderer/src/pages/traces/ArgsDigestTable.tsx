/** The digest of a call's arguments: per field its kind, length and printable characters. */
import type { Span } from '../../../../shared/contract';

export function ArgsDigestTable(props: { digest: Span['argsDigest'] }): React.JSX.Element {
  const fields = Object.entries(props.digest.fields);
  if (fields.length === 0) return <p className="muted">The call had no arguments.</p>;
  return (
    <table className="data-table" aria-label="Arguments digest">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Kind</th>
          <th scope="col">Length</th>
          <th scope="col">Printable</th>
        </tr>
      </thead>
      <tbody>
        {fields.map(([name, f]) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
            </td>
            <td>{f.kind}</td>
            <td>{f.length}</td>
            <td>{f.printable ?? '—'}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={2}>Total length</td>
          <td colSpan={2}>{props.digest.totalLength}</td>
        </tr>
      </tfoot>
    </table>
  );
}
