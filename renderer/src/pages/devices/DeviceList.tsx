/**
 * The attached devices: serial, model, adb state and the telemetry the environment gate uses
 * (screen on, foreground app, keyboard), each a link that selects the device.
 */
import type { DeviceView } from '../../../../shared/contract';
import { Badge } from '../../components/Badge';
import { formatAgo } from '../../components/format';
import { useNow } from '../../components/use-now';
import { hrefFor } from '../../router/hash-route';
import { deviceStateMeaning } from './device-states';

function yesNo(value: boolean | undefined, yes: string, no: string): string {
  return value === undefined ? 'unknown' : value ? yes : no;
}

function Telemetry(props: { telemetry: DeviceView['telemetry'] }): React.JSX.Element {
  const t = props.telemetry;
  const now = useNow(5_000, t.at !== undefined);
  return (
    <dl className="device-telemetry">
      <dt>Screen</dt>
      <dd>{yesNo(t.screenOn, 'on', 'off')}</dd>
      <dt>Foreground</dt>
      <dd className="mono ellipsis" title={t.foreground}>
        {t.foreground ?? 'unknown'}
      </dd>
      <dt>Keyboard</dt>
      <dd>{yesNo(t.keyboardShown, 'shown', 'hidden')}</dd>
      {t.at !== undefined ? (
        <>
          <dt>As of</dt>
          <dd>{formatAgo(Math.max(0, now - t.at))}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function DeviceList(props: { devices: readonly DeviceView[]; selected: string | undefined }): React.JSX.Element {
  return (
    <nav className="card device-list" aria-label="Devices">
      <h2>
        {props.devices.length} device{props.devices.length === 1 ? '' : 's'}
      </h2>
      <ul className="plain-list">
        {props.devices.map((d) => {
          const meaning = deviceStateMeaning(d.state);
          return (
            <li key={d.serial}>
              <a
                className="device-item"
                href={hrefFor('devices', d.serial)}
                aria-current={d.serial === props.selected ? 'true' : undefined}
                data-testid="device-item"
              >
                <span className="row spread">
                  <code className="ellipsis">{d.serial}</code>
                  <Badge tone={meaning.tone} title={meaning.advice}>
                    {meaning.label}
                  </Badge>
                </span>
                {d.model ? <span className="small">{d.model}</span> : null}
                <Telemetry telemetry={d.telemetry} />
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
