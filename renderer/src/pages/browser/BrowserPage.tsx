/**
 * Browser: a placeholder until the browser integration lands. It shows the browser state the host
 * reports in `info` and says honestly what is coming.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useInfo } from '../../state/queries';

export function BrowserPage(): React.JSX.Element {
  const info = useInfo();
  return (
    <>
      <PageHeader title="Browser" description="The Chrome the browser tools drive." />
      <QueryState query={info} what="the browser state">
        {(data) => (
          <EmptyState title="The browser view is coming with the browser integration.">
            <p>The live mirror of the page, tabs and network log arrive with the browser tools.</p>
            <p>{data.browser.started ? `The browser is running with ${data.browser.tabs} tab${data.browser.tabs === 1 ? '' : 's'}${data.browser.url ? ` at ${data.browser.url}` : ''}.` : 'The browser is not started; the first browser tool call launches it.'}</p>
          </EmptyState>
        )}
      </QueryState>
    </>
  );
}
