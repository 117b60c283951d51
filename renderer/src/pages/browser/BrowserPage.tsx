/**
 * Browser: the Chrome the browser tools drive, mirrored live, with its URL, title, tabs and the
 * last actions; a warning while a modal dialog blocks the page. When an agent calls browser_show
 * the app comes here and says why.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useNow } from '../../components/use-now';
import { hrefFor } from '../../router/hash-route';
import { useBrowserShowRequest } from '../../state/browser-show';
import { useBrowserView } from '../../state/queries';
import { BrowserDetails } from './BrowserDetails';
import { BrowserMirror } from './BrowserMirror';
import { ShowBanner } from './ShowBanner';
import '../../styles/screens.css';

/** How long the mirror stays highlighted after a browser_show. */
const HIGHLIGHT_MS = 4_000;

export function BrowserPage(): React.JSX.Element {
  const view = useBrowserView();
  const request = useBrowserShowRequest();
  const highlighting = (now: number) => request !== undefined && now - request.at < HIGHLIGHT_MS;
  // Ticks only while the highlight lasts; a new request starts it again.
  const now = useNow(500, highlighting(Date.now()));
  const highlight = highlighting(now);
  return (
    <>
      <PageHeader
        title="Browser"
        description="The Chrome the browser tools drive, mirrored live."
        actions={
          <button type="button" className="secondary" onClick={() => void view.refetch()} disabled={view.isFetching}>
            Refresh
          </button>
        }
      />
      {request ? <ShowBanner request={request} /> : null}
      <QueryState query={view} what="the browser state">
        {(data) =>
          !data.started ? (
            <EmptyState title="Not started: the first browser tool call launches it.">
              <p>
                When an agent calls a browser tool (browser_navigate, for one), Chrome starts and its page is mirrored
                here. To start it by hand, run <a href={hrefFor('tools', 'browser_navigate')}>browser_navigate</a> from
                the Tools page.
              </p>
            </EmptyState>
          ) : (
            <>
              {data.dialog ? (
                <div className="banner banner-warn" role="alert" data-testid="browser-dialog">
                  <strong>A dialog is open on the page:</strong> {data.dialog}. The browser tools refuse to act on the
                  page until it is answered (browser_click with
                  {' {"dialog": "accept"}'} or {'{"dialog": "dismiss"}'}).
                </div>
              ) : null}
              <div className="browser-layout">
                <BrowserMirror highlight={highlight} />
                <BrowserDetails view={data} />
              </div>
            </>
          )
        }
      </QueryState>
    </>
  );
}
