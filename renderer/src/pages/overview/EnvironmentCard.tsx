/** What the tools can reach right now: attached devices and the browser. */
import type { HostInfo } from '../../../../shared/contract';
import { Badge } from '../../components/Badge';
import { hrefFor } from '../../router/hash-route';

export function EnvironmentCard(props: { info: HostInfo }): React.JSX.Element {
  const { devices, browser } = props.info;
  return (
    <section className="card" aria-labelledby="env-title">
      <h2 id="env-title">Devices and browser</h2>
      <h3>
        <a href={hrefFor('devices')}>Devices</a>
      </h3>
      {devices.length === 0 ? (
        <p className="muted">
          No Android device attached. Connect one over USB (or `adb connect host:port`) and it appears here.
        </p>
      ) : (
        <ul className="plain-list">
          {devices.map((d) => (
            <li key={d.serial} className="row">
              <code>{d.serial}</code>
              {d.model ? <span>{d.model}</span> : null}
              <Badge tone={d.state === 'device' ? 'good' : 'warn'}>{d.state}</Badge>
            </li>
          ))}
        </ul>
      )}
      <h3>
        <a href={hrefFor('browser')}>Browser</a>
      </h3>
      {browser.started ? (
        <p className="row">
          <Badge tone="good">Running</Badge>
          <span>
            {browser.tabs} tab{browser.tabs === 1 ? '' : 's'}
          </span>
          {browser.url ? <code className="wrap">{browser.url}</code> : null}
        </p>
      ) : (
        <p className="muted">Not started. The first browser tool call launches it.</p>
      )}
    </section>
  );
}
