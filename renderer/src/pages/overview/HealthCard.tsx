/** Is the host up, which version and mode, how long it has run, how many tools it serves. */
import type { HostInfo } from '../../../../shared/contract';
import { Badge } from '../../components/Badge';
import { formatDuration } from '../../components/format';
import { useNow } from '../../components/use-now';
import { useConnection } from '../../state/api-context';

export function HealthCard(props: { info: HostInfo }): React.JSX.Element {
  const { info } = props;
  const now = useNow(1_000);
  const { state } = useConnection();
  const live = state.status === 'open';
  return (
    <section className="card" aria-labelledby="health-title">
      <h2 id="health-title">Host</h2>
      <p className="row">
        <Badge tone={live ? 'good' : 'bad'}>{live ? 'Running' : 'Unreachable'}</Badge>
        <span className="muted">{live ? 'live events connected' : 'live events disconnected'}</span>
      </p>
      <dl className="facts">
        <dt>Version</dt>
        <dd>{info.version}</dd>
        <dt>Mode</dt>
        <dd>{info.mode}</dd>
        <dt>Up for</dt>
        <dd>{formatDuration(Math.max(0, now - info.startedAt))}</dd>
        <dt>Tools</dt>
        <dd data-testid="tool-count">{info.toolCount}</dd>
        <dt>Data dir</dt>
        <dd>
          <code className="wrap">{info.dataDir}</code>
        </dd>
      </dl>
    </section>
  );
}
