/**
 * Settings: the GitHub token (write-only), then the host's person-editable settings (adb server,
 * browser, web search, skill sources, GitHub API URL, approvals, telemetry export), stored in the
 * data dir. Empty fields use the defaults the help texts name.
 */
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useSettings } from '../../state/queries';
import { GithubCard } from './GithubCard';
import { SettingsForm } from './SettingsForm';
import '../../styles/settings.css';

export function SettingsPage(): React.JSX.Element {
  const settings = useSettings();
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          'How this host reaches devices, the browser and the network. ' +
          'Saved in the data dir; some apply only after a restart.'
        }
      />
      <GithubCard />
      <QueryState query={settings} what="settings">
        {(data) => <SettingsForm view={data} />}
      </QueryState>
    </>
  );
}
