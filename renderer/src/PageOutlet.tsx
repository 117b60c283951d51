/** Maps the current route to its page component. */
import type { PageId } from './router/pages';
import { ApprovalsPage } from './pages/approvals/ApprovalsPage';
import { BreakersPage } from './pages/breakers/BreakersPage';
import { BrowserPage } from './pages/browser/BrowserPage';
import { DevicesPage } from './pages/devices/DevicesPage';
import { LatencyPage } from './pages/latency/LatencyPage';
import { OverviewPage } from './pages/overview/OverviewPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { TerminalsPage } from './pages/terminals/TerminalsPage';
import { ShortcutsPage } from './pages/shortcuts/ShortcutsPage';
import { SkillsPage } from './pages/skills/SkillsPage';
import { ToolsPage } from './pages/tools/ToolsPage';
import { TracesPage } from './pages/traces/TracesPage';

export function PageOutlet(props: { page: PageId; params: string[] }): React.JSX.Element {
  switch (props.page) {
    case 'overview':
      return <OverviewPage />;
    case 'tools':
      return <ToolsPage selectedId={props.params[0]} />;
    case 'traces':
      return <TracesPage selectedCallId={props.params[0]} />;
    case 'latency':
      return <LatencyPage selectedId={props.params[0]} />;
    case 'breakers':
      return <BreakersPage />;
    case 'approvals':
      return <ApprovalsPage />;
    case 'shortcuts':
      return <ShortcutsPage />;
    case 'skills':
      return <SkillsPage />;
    case 'devices':
      return <DevicesPage selectedSerial={props.params[0]} />;
    case 'browser':
      return <BrowserPage />;
    case 'terminals':
      return <TerminalsPage selectedId={props.params[0]} />;
    case 'settings':
      return <SettingsPage />;
  }
}
