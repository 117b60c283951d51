/**
 * The phone's display as taps address it: `wm size` (the override size when one is set, else the
 * physical one, both in the natural orientation) turned by the current rotation, from `dumpsys
 * input` (the internal viewport's `orientation=N` on Android 10+, `SurfaceOrientation: N` before).
 * Unknown rotation reads as the natural one.
 */
import type { DeviceManager } from '../manager/device-manager';

export interface DisplayGeometry {
  /** Pixels in the current orientation. */
  width: number;
  height: number;
  /** Quarter turns from the natural orientation (0-3). */
  rotation: number;
}

export const GEOMETRY_COMMAND = "wm size; dumpsys input | grep -E 'Viewport INTERNAL|SurfaceOrientation'";

export function parseGeometry(output: string): DisplayGeometry | undefined {
  const size = (label: string) => {
    const m = new RegExp(`${label} size: (\\d+)x(\\d+)`).exec(output);
    return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
  };
  const natural = size('Override') ?? size('Physical');
  if (!natural || natural.width === 0 || natural.height === 0) return undefined;
  const turn =
    /Viewport INTERNAL:[^\n]*orientation=(\d)/.exec(output)?.[1] ?? /SurfaceOrientation: (\d)/.exec(output)?.[1];
  const rotation = turn === undefined ? 0 : Number(turn) % 4;
  return rotation % 2 === 1 ? { width: natural.height, height: natural.width, rotation } : { ...natural, rotation };
}

export async function readGeometry(
  manager: DeviceManager,
  serial: string,
  signal?: AbortSignal,
): Promise<DisplayGeometry | undefined> {
  const result = await manager.shell(serial, GEOMETRY_COMMAND, { timeoutMs: 10_000, ...(signal ? { signal } : {}) });
  return parseGeometry(result.output);
}
