/**
 * The built-in displays of a phone, for capturing the right one. `screencap` takes SurfaceFlinger's
 * physical display id (`-d`); which display is on comes from the display manager's viewports
 * (`dumpsys display`: `DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0,
 * uniqueId='local:PHYSICAL_ID', …, deviceWidth=W, deviceHeight=H}`; `isActive` since Android 10).
 */
import type { DeviceManager } from './manager/device-manager';

export interface PhoneDisplay {
  physicalId: string;
  /** The logical display id (`input -d`, `wm size -d`); -1 when it has none. */
  logicalId: number;
  width: number;
  height: number;
  active: boolean;
  internal: boolean;
}

export function parseViewports(dump: string): PhoneDisplay[] {
  const found = new Map<string, PhoneDisplay>();
  for (const m of dump.matchAll(/DisplayViewport\{([^}]*)\}/g)) {
    const body = m[1] ?? '';
    const field = (name: string) => new RegExp(`(?:^|, )${name}=([^,]*)`).exec(body)?.[1]?.trim();
    const physicalId = /uniqueId='local:(\d+)'/.exec(body)?.[1];
    if (!physicalId || found.has(physicalId)) continue;
    const active = field('isActive');
    found.set(physicalId, {
      physicalId,
      logicalId: Number(field('displayId') ?? -1),
      width: Number(field('deviceWidth') ?? 0),
      height: Number(field('deviceHeight') ?? 0),
      active: active === undefined ? field('valid') === 'true' : active === 'true',
      internal: (field('type') ?? 'INTERNAL') === 'INTERNAL',
    });
  }
  return [...found.values()];
}

/** `dumpsys SurfaceFlinger --display-id`: `Display ID (HWC display N): …` per physical display. */
export function parseSurfaceFlingerIds(dump: string): string[] {
  return [...dump.matchAll(/^Display (\d+) \(HWC display \d+\)/gm)].map((m) => m[1] ?? '');
}

/** The displays of a phone as its display manager lists them. */
export async function listDisplays(
  manager: DeviceManager,
  serial: string,
  opts: { signal?: AbortSignal } = {},
): Promise<PhoneDisplay[]> {
  const r = await manager.shell(serial, 'dumpsys display | grep -E DisplayViewport', {
    timeoutMs: 10_000,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return parseViewports(r.output);
}

/** The built-in display that is on (the one a person looks at), or the first internal one. */
export function defaultDisplay(displays: readonly PhoneDisplay[]): PhoneDisplay | undefined {
  return displays.find((d) => d.internal && d.active) ?? displays.find((d) => d.internal) ?? displays[0];
}

/** What `screencap` wrote before the image (a multi-display warning, linker noise), and the image. */
export function splitCaptureText(data: Buffer, signature: Buffer): { text: string; image: Buffer } {
  const at = data.indexOf(signature);
  if (at <= 0) return { text: '', image: data };
  return { text: data.subarray(0, at).toString('utf8'), image: data.subarray(at) };
}

export const MULTI_DISPLAY_WARNING = /Multiple displays were found, but no display id was specified/;
