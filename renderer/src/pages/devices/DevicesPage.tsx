/**
 * Devices: a placeholder until the device integration lands. It shows what the host already knows
 * (attached devices from `info`) and says honestly what is coming.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useInfo } from '../../state/queries';

export function DevicesPage(): React.JSX.Element {
  const info = useInfo();
  return (
    <>
      <PageHeader title="Devices" description="Android devices reached over ADB." />
      <QueryState query={info} what="devices">
        {(data) => (
          <EmptyState title="Device views are coming with the device integration.">
            <p>The screen mirror, app list and device controls arrive with the device tools.</p>
            <p>
              The host sees {data.devices.length === 0 ? 'no device right now' : `${data.devices.length} device${data.devices.length === 1 ? '' : 's'}: ${data.devices.map((d) => `${d.serial} (${d.state})`).join(', ')}`}.
            </p>
          </EmptyState>
        )}
      </QueryState>
    </>
  );
}
