/**
 * A device lab on one phone profile, whose calls go through the host's pipeline as an agent's do
 * (device-lab.ts); and what each family of phones is expected to answer, for the profile matrix
 * tests. Nothing here needs vitest: scripts/device-profile-table.ts starts its labs with it too.
 */
import type { ToolResult } from '../../tools/core';
import type { Pipeline } from '../../tools/core/pipeline';
import type { ProfileName, VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, type LabOptions, startDeviceLab, textOf } from './device-lab';

export interface ProfileLab {
  lab: DeviceLab;
  device: VirtualDevice;
  pipeline: Pipeline;
  /** A call through the pipeline. */
  run(toolId: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** `options.decide` answers the person's approvals (approve once when absent). */
export async function startProfileLab(
  profile: ProfileName,
  options: Pick<LabOptions, 'decide'> = {},
): Promise<ProfileLab> {
  const lab = await startDeviceLab({ ...options, profile, keyboardSettleMs: 0 });
  return {
    lab,
    device: lab.devices[0]!,
    pipeline: lab.family.pipeline,
    run: (toolId, args = {}) => lab.call(toolId, args),
    close: () => lab.close(),
  };
}

/** The ref ui_dump gave the element whose line contains `needle`. */
export function refOf(dump: string, needle: string): string {
  const line = dump.split('\n').find((l) => l.includes(needle));
  if (!line) throw new Error(`no element with ${needle} in:\n${dump}`);
  return /\b(e\d+)\b/.exec(line)![1]!;
}

/** The centre ui_dump gave the element whose line contains `needle`. */
export function pointOf(dump: string, needle: string): { x: number; y: number } {
  const m = /@(\d+),(\d+)/.exec(dump.split('\n').find((l) => l.includes(needle)) ?? '');
  if (!m) throw new Error(`no element with ${needle} in:\n${dump}`);
  return { x: Number(m[1]), y: Number(m[2]) };
}

/** The error of a failed result, for matching; throws on a success. */
export function errorOf(result: ToolResult): { code: string; message: string; hint?: string; data?: unknown } {
  if (result.ok) throw new Error(`expected a failure, got: ${textOf(result)}`);
  return result.error;
}

/** Lets the phone inject input, as a person does by turning on the OEM's security setting. */
export function allowInjection(device: VirtualDevice): void {
  const setting = device.phone.profile.oem.inputInjection;
  if (setting) device.phone.props.set(setting.prop, '1');
}

/** What each family of phones answers to the tools (tools/devices/virtual/profiles/ says why). */
export const ANSWERS: Record<
  ProfileName,
  {
    /** input_text with non-ASCII text: how ADBKeyboard gets (or cannot get) the text. */
    adbKeyboard: 'switch' | 'enable-and-switch' | 'selected' | 'absent';
    /** `input` is refused until the OEM setting is on. */
    injectionRefused: boolean;
    /** `pm install` over adb is refused until the OEM setting is on. */
    installRefused: boolean;
    /** An APK targeting SDK 22 is refused (Android 14+) unless allowLowTargetSdk. */
    lowTargetRefused: boolean;
    /** The command control_media sends keys with. */
    mediaVia: 'cmd media_session dispatch' | 'media dispatch';
    /** ui_dump needs more than one attempt right after the screen changed. */
    dumpFlakesAfterTransition: boolean;
    androidVersion: string;
    manufacturer: string;
  }
> = {
  pixel: {
    adbKeyboard: 'switch',
    injectionRefused: false,
    installRefused: false,
    lowTargetRefused: true,
    mediaVia: 'cmd media_session dispatch',
    dumpFlakesAfterTransition: false,
    androidVersion: '15',
    manufacturer: 'Google',
  },
  samsung: {
    adbKeyboard: 'absent',
    injectionRefused: false,
    installRefused: false,
    lowTargetRefused: false,
    mediaVia: 'cmd media_session dispatch',
    dumpFlakesAfterTransition: true,
    androidVersion: '13',
    manufacturer: 'samsung',
  },
  xiaomi: {
    adbKeyboard: 'enable-and-switch',
    injectionRefused: true,
    installRefused: true,
    lowTargetRefused: true,
    mediaVia: 'cmd media_session dispatch',
    dumpFlakesAfterTransition: true,
    androidVersion: '14',
    manufacturer: 'Xiaomi',
  },
  legacy: {
    adbKeyboard: 'selected',
    injectionRefused: false,
    installRefused: false,
    lowTargetRefused: false,
    mediaVia: 'media dispatch',
    dumpFlakesAfterTransition: false,
    androidVersion: '9',
    manufacturer: 'motorola',
  },
  foldable: {
    adbKeyboard: 'absent',
    injectionRefused: false,
    installRefused: false,
    lowTargetRefused: true,
    mediaVia: 'cmd media_session dispatch',
    dumpFlakesAfterTransition: false,
    androidVersion: '14',
    manufacturer: 'Google',
  },
};
