/** Which device the Devices page shows: the route's if attached, else the first usable one, else the first one. */
import type { DeviceView } from '../../../../shared/contract';

export function pickDevice(devices: readonly DeviceView[], wanted: string | undefined): DeviceView | undefined {
  if (wanted) return devices.find((d) => d.serial === wanted);
  return devices.find((d) => d.state === 'device') ?? devices[0];
}
