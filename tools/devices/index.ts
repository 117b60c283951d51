/**
 * The device family (docs/architecture.md#tool-families): twenty tools on Android devices over adb,
 * the device service behind them (one adbkit client, tracking, telemetry, live screen and logcat
 * sources), and the environment rules for the pipeline's gate. The virtual device lives in
 * ./virtual.
 */
import type { Tool } from '../core/tool';
import { type Toolset, defineToolset } from '../core/toolset';
import type { DeviceService } from './device-service';
import { type CommandApprover, shellExecuteTool } from './shell-gate/shell-execute';
import { appInstallTool } from './tools/app-install';
import { appForceStopTool, appInfoTool, appLaunchTool, appListTool, appUninstallTool } from './tools/apps';
import { logcatTool } from './tools/logcat';
import { getLocationTool, notificationReadTool } from './tools/readers';
import { screenshotTool } from './tools/screenshot';
import { controlMediaTool } from './tools/media';
import { clipboardTool, getDeviceInfoTool, getSetSettingsTool, getTimeTool } from './tools/system';
import { inputTextTool } from './tools/input-text';
import { uiDumpTool, uiSwipeTool, uiTapTool } from './tools/ui';
import { UiRefStore } from './tools/ui-tree';

export { createDeviceService, type DeviceService, type DeviceServiceOptions, type DeviceView } from './device-service';
export { adbPortFromEnv } from './manager/adb-server';
export { DEVICE_TOOL_IDS, deviceEnvironmentRules } from './environment-rules';
export { type CommandApprovalRequest, type CommandApprover, SHELL_OUTPUT_LIMIT } from './shell-gate/shell-execute';
export { judgeCommandLine, type LineJudgement, type Verdict } from './shell-gate/command-policy';
export { quote, sh } from './shell-words';
export {
  DEVICE_TELEMETRY_MEANINGS,
  telemetryKey,
  type DeviceScreenState,
  type TelemetryField,
} from './manager/device-telemetry';
export type { DeviceChange, TrackedDevice } from './manager/device-tracker';
export type { ScreenFrame, ScreenStream, ScreenStreamOptions } from './screen-stream';
export {
  ScreenHub,
  type ScreenHubOptions,
  type ScreenSink,
  type ScreenViewer,
  type StreamStats,
} from './screen/screen-hub';
export type { LogcatTailOptions } from './logcat-tail';
export { attachVirtualDevice, type AttachedVirtualDevice } from './virtual-demo';

export interface DeviceToolDeps {
  service: DeviceService;
  /** Folder app_install may read APKs from. */
  workspaceRoot: string;
  /** Asks a person about shell commands that are neither read-only nor refused; without it they are denied. */
  approveCommand?: CommandApprover;
}

export const DEVICE_TOOLSET = defineToolset(
  'device',
  'Drive an Android phone over adb: what it is, read the screen, tap, swipe, type, screenshot, launch apps.',
);
export const DEVICE_SYSTEM_TOOLSET = defineToolset(
  'device-system',
  'Below the screen of a phone: installs, settings, logcat, clipboard, media, location, notifications.',
);
export const DEVICE_SHELL_TOOLSET = defineToolset(
  'device-shell',
  'A shell on the phone; each command is judged, and a person approves the ones that change things.',
);

/**
 * The family's three toolsets: what drives a phone through its screen (and says which phone it
 * is: an agent's first call), what reaches below it (and reads a person's data), and the shell apart, so a client can
 * drive a phone without holding a shell on it.
 */
export function deviceToolsets(deps: DeviceToolDeps): Array<{ toolset: Toolset; tools: Tool[] }> {
  const { service } = deps;
  const refs = new UiRefStore();
  return [
    { toolset: DEVICE_SHELL_TOOLSET, tools: [shellExecuteTool(service, deps.approveCommand)] },
    {
      toolset: DEVICE_TOOLSET,
      tools: [
        getDeviceInfoTool(service),
        appListTool(service),
        appLaunchTool(service),
        uiTapTool(service, refs),
        uiSwipeTool(service, refs),
        uiDumpTool(service, refs),
        screenshotTool(service),
        inputTextTool(service),
      ],
    },
    {
      toolset: DEVICE_SYSTEM_TOOLSET,
      tools: [
        appInstallTool(service, deps.workspaceRoot),
        appUninstallTool(service),
        appForceStopTool(service),
        appInfoTool(service),
        getSetSettingsTool(service, deps.approveCommand),
        controlMediaTool(service),
        clipboardTool(service),
        getTimeTool(service),
        logcatTool(service),
        getLocationTool(service),
        notificationReadTool(service),
      ],
    },
  ];
}

export function deviceTools(deps: DeviceToolDeps): Tool[] {
  return deviceToolsets(deps).flatMap((group) => group.tools);
}
