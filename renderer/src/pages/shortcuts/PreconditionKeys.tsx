/** The telemetry keys a shortcut precondition may name, what each means, and the ones with a reading now. */
export function PreconditionKeys(props: {
  keys: Array<{ key: string; meaning: string; current: string[] }>;
}): React.JSX.Element {
  return (
    <details className="card" data-testid="precondition-keys">
      <summary>Keys a precondition may check</summary>
      <p className="small">
        A precondition <code>{'{ key, equals }'}</code> is checked before the first step against the host's fresh
        telemetry; an unknown or stale value (older than 10 s) lets the run go ahead. Write <code>{'{serial}'}</code> in
        a key to check the device a parameter names, e.g. <code>{'device.{serial}.online'}</code>.
      </p>
      <table className="data-table" aria-label="Precondition keys">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Means</th>
            <th scope="col">Has a reading now</th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((k) => (
            <tr key={k.key}>
              <td>
                <code>{k.key}</code>
              </td>
              <td className="small">{k.meaning}</td>
              <td className="small">
                {k.current.length ? k.current.map((c) => <code key={c}>{c} </code>) : <span className="muted">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
