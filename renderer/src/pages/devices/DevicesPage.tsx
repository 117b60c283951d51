/**
 * Devices: the attached Android devices with their state and telemetry; the selected one's live
 * screen (click to tap, drag to swipe, through the same pipeline an agent's ui_tap / ui_swipe goes
 * through), the outcome of the last action, and its logcat.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceView } from '../../../../shared/contract';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useApi } from '../../state/api-context';
import { useDevices } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';
import { AttachHelp } from './AttachHelp';
import { DeviceList } from './DeviceList';
import { DeviceScreen } from './DeviceScreen';
import { deviceStateMeaning } from './device-states';
import { GestureOutcome } from './GestureOutcome';
import { LogcatPane } from './LogcatPane';
import { pickDevice } from './pick-device';
import type { Gesture } from './screen-gesture';
import '../../styles/screens.css';

function SelectedDevice(props: { device: DeviceView }): React.JSX.Element {
  const { device } = props;
  const api = useApi();
  const client = useQueryClient();
  const action = useMutation({
    mutationFn: (g: Gesture) =>
      g.kind === 'tap'
        ? api.deviceTap({ serial: device.serial, x: g.x, y: g.y })
        : api.deviceSwipe({ serial: device.serial, x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2, durationMs: g.durationMs }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.deviceLogcatRoot });
      void client.invalidateQueries({ queryKey: queryKeys.devices });
    },
  });
  const meaning = deviceStateMeaning(device.state);
  return (
    <>
      {meaning.advice ? (
        <section className="card" aria-labelledby="screen-title">
          <h2 id="screen-title">Screen</h2>
          <EmptyState title={`${device.serial} is ${meaning.label}.`}>{meaning.advice}</EmptyState>
        </section>
      ) : (
        <DeviceScreen key={device.serial} serial={device.serial} onGesture={(g) => action.mutate(g)} />
      )}
      <div className="device-side">
        <GestureOutcome
          gesture={action.variables}
          pending={action.isPending}
          outcome={action.data}
          error={action.error}
        />
        {meaning.advice ? null : <LogcatPane key={device.serial} serial={device.serial} />}
      </div>
    </>
  );
}

export function DevicesPage(props: { selectedSerial?: string | undefined }): React.JSX.Element {
  const devices = useDevices();
  return (
    <>
      <PageHeader
        title="Devices"
        description="Android devices reached over ADB: their state, live screen and logs."
        actions={
          <button
            type="button"
            className="secondary"
            onClick={() => void devices.refetch()}
            disabled={devices.isFetching}
          >
            Refresh devices
          </button>
        }
      />
      <QueryState query={devices} what="devices" isEmpty={(list) => list.length === 0} empty={<AttachHelp />}>
        {(list) => {
          const selected = pickDevice(list, props.selectedSerial);
          return (
            <div className="devices-layout">
              <DeviceList devices={list} selected={selected?.serial} />
              {selected ? (
                <SelectedDevice key={selected.serial} device={selected} />
              ) : (
                <EmptyState title={`${props.selectedSerial ?? 'That device'} is not attached.`}>
                  Pick one of the attached devices on the left.
                </EmptyState>
              )}
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
