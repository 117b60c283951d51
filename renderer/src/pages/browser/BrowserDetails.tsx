/** The browser's state beside the mirror: URL and title, the tabs (active marked), recent actions. */
import type { BrowserView } from '../../../../shared/contract';
import { Badge, type BadgeTone } from '../../components/Badge';
import { formatAgo, formatClock } from '../../components/format';
import { useNow } from '../../components/use-now';

const SHOWN_ACTIONS = 20;

type ActionOutcome = BrowserView['recentActions'][number]['outcome'];
const OUTCOME_TONE: Record<ActionOutcome, BadgeTone> = { ok: 'good', failed: 'bad', refused: 'warn' };
const OUTCOME_WORD: Record<ActionOutcome, string> = { ok: 'done', failed: 'failed', refused: 'refused' };

function Tabs(props: { tabs: BrowserView['tabs'] }): React.JSX.Element {
  return (
    <section className="card" aria-labelledby="tabs-title">
      <h2 id="tabs-title">
        {props.tabs.length} tab{props.tabs.length === 1 ? '' : 's'}
      </h2>
      <ol className="tab-list" data-testid="browser-tabs">
        {props.tabs.map((t) => (
          <li key={t.id} className={t.active ? 'active-tab' : undefined} aria-current={t.active ? 'true' : undefined}>
            <span className="row">
              <span className="ellipsis tab-title">{t.title || '(no title)'}</span>
              {t.active ? <Badge tone="info">active</Badge> : null}
            </span>
            <code className="small wrap">{t.url}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}

function RecentActions(props: { actions: BrowserView['recentActions'] }): React.JSX.Element {
  const now = useNow(5_000, props.actions.length > 0);
  const actions = [...props.actions].sort((a, b) => b.at - a.at).slice(0, SHOWN_ACTIONS);
  return (
    <section className="card" aria-labelledby="actions-title">
      <h2 id="actions-title">Recent actions</h2>
      {actions.length === 0 ? (
        <p className="muted">No browser tool has acted on the page yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" aria-label="Recent browser actions, newest first" data-testid="browser-actions">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Target</th>
                <th scope="col">Outcome</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {actions.map((a, i) => (
                <tr key={`${a.at}-${i}`}>
                  <td className="mono">{a.tool}</td>
                  <td className="wrap">{a.target ?? '—'}</td>
                  <td className="nowrap" data-testid="action-outcome">
                    <Badge tone={OUTCOME_TONE[a.outcome]} title={a.code}>
                      {OUTCOME_WORD[a.outcome]}
                    </Badge>
                    {a.code && a.outcome !== 'refused' ? <code className="small"> {a.code}</code> : null}
                  </td>
                  <td className="nowrap" title={formatClock(a.at)}>
                    {formatAgo(Math.max(0, now - a.at))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** "Launched /usr/bin/chromium, headless" / "Connected over CDP to http://…": what the tools drive. */
export function describeConnection(connection: NonNullable<BrowserView['connection']>): string {
  const window = connection.headless === undefined ? '' : connection.headless ? ', headless' : ', with a window';
  switch (connection.mode) {
    case 'launch':
      return `Launched ${connection.target}${window}`;
    case 'persistent':
      return `Launched ${connection.target} with the persistent profile${window}`;
    case 'cdp':
      return `Connected over CDP to ${connection.target}`;
    case 'server':
      return `Connected to the Playwright browser server ${connection.target}`;
  }
}

export function BrowserDetails(props: { view: BrowserView }): React.JSX.Element {
  const { view } = props;
  return (
    <div className="browser-side">
      <section className="card" aria-labelledby="page-title">
        <h2 id="page-title">Page</h2>
        <dl className="facts">
          <dt>Title</dt>
          <dd className="wrap" data-testid="browser-title">
            {view.title || '(no title)'}
          </dd>
          <dt>URL</dt>
          <dd className="mono wrap" data-testid="browser-url">
            {view.url ?? '—'}
          </dd>
          <dt>Browser</dt>
          <dd className="wrap" data-testid="browser-connection">
            {view.connection ? describeConnection(view.connection) : 'not started'}
          </dd>
        </dl>
      </section>
      <Tabs tabs={view.tabs} />
      <RecentActions actions={view.recentActions} />
    </div>
  );
}
