/**
 * The control center's shell: skip link, header with the live-connection state, the left
 * navigation and the current page. Moving to another page moves keyboard focus to its title,
 * unless the page already placed focus itself (Approvals focuses the first pending item).
 */
import { useEffect, useRef } from 'react';
import { ConnectionBanner } from './components/ConnectionBanner';
import { ConnectionDot } from './components/ConnectionDot';
import { Nav } from './components/Nav';
import { PageOutlet } from './PageOutlet';
import { useHashRoute } from './router/hash-route';
import { isPageId } from './router/pages';
import { useApprovalAlerts } from './state/approval-alerts';
import { useBrowserShowNavigation } from './state/browser-show';

export function App(): React.JSX.Element {
  const route = useHashRoute();
  const page = isPageId(route.page) ? route.page : 'overview';
  const main = useRef<HTMLElement>(null);
  // The page last shown: focus moves only when it changes (not on the first render, and not when
  // StrictMode re-runs the effect).
  const shownPage = useRef(page);
  // An agent's browser_show brings the Browser page forward from any page.
  useBrowserShowNavigation();
  // A call waiting for a decision shows in the tab title, and as a notification when allowed.
  useApprovalAlerts();

  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    const active = document.activeElement;
    if (main.current && active && main.current.contains(active)) return;
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [page]);

  return (
    <div className="app">
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a real link to #main; the click only moves focus
          there too */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">Toolgate</span>
        <ConnectionDot />
      </header>
      <Nav current={page} />
      <main id="main" ref={main} tabIndex={-1} className="content">
        <ConnectionBanner />
        <PageOutlet page={page} params={route.params} />
      </main>
    </div>
  );
}
