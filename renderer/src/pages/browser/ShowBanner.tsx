/** The agent called browser_show: say so, with its reason, until the person dismisses it. */
import { formatClock } from '../../components/format';
import { type BrowserShowRequest, dismissBrowserShow } from '../../state/browser-show';

export function ShowBanner(props: { request: BrowserShowRequest }): React.JSX.Element {
  const { request } = props;
  return (
    <div className="banner banner-info row spread" role="status" data-testid="browser-show-banner">
      <span>
        <strong>The agent asks you to look at this page</strong>
        {request.reason ? <>: {request.reason}</> : '.'}{' '}
        <span className="muted small">
          ({formatClock(request.at)}
          {request.url ? `, ${request.url}` : ''})
        </span>
      </span>
      <button type="button" className="secondary" onClick={dismissBrowserShow}>
        Dismiss
      </button>
    </div>
  );
}
