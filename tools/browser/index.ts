/**
 * The browser family: 15 tools over one BrowserManager (playwright-core driving an installed
 * Chrome/Chromium/Edge), plus what the host needs for the mirror view and the environment gate.
 *
 * Host wiring:
 *   const manager = new BrowserManager({ executablePath, headless, userDataDir, cdpEndpoint, playwrightServer });
 *   const tools = browserTools({ manager, workspaceRoot, onShow: (info) => ui.showBrowser(info) });
 *   registry.registerToolset(BROWSER_TOOLSET, tools);
 *   gate telemetry: manager.telemetry(); mirror: manager.startScreencast(onFrame), manager.tabs(),
 *   manager.recentActions(), FpsMeter; shutdown: manager.close().
 */
import { join } from 'node:path';
import type { Tool } from '../core/tool';
import { defineToolset } from '../core/toolset';
import type { BrowserToolDeps } from './define-browser-tool';
import { browserClick } from './tools/click';
import { browserContextSummary } from './tools/context-summary';
import { browserDateInput } from './tools/date-input';
import { browserDebugDump } from './tools/debug-dump';
import { browserDownloadList } from './tools/download-list';
import { browserFileUpload } from './tools/file-upload';
import { browserInput } from './tools/input';
import { browserNavigate } from './tools/navigate';
import { browserNetworkLog } from './tools/network-log';
import { browserScreenshot } from './tools/screenshot';
import { browserScroll } from './tools/scroll';
import { browserSelect } from './tools/select';
import { browserShow } from './tools/show';
import { browserSnapshot } from './tools/snapshot';
import { browserToggle } from './tools/toggle';

export { BrowserManager, type ActionRecord, type BrowserLoss, type BrowserManagerOptions } from './browser-manager';
export type { TabInfo } from './tab-list';
export type { BrowserToolDeps, ShowInfo } from './define-browser-tool';
export type { DialogInfo, DialogType } from './dialogs';
export type { CallOrigin, DownloadEntry, DownloadState } from './downloads';
export { unreachablePortArgs } from './launch';
export { candidatePaths, resolveExecutable } from './executable';
export { FpsMeter } from './fps-meter';
export { LINUX_ARGS, type LaunchSettings } from './launch';
export type { NetworkEntry, NetworkFilter } from './network-log';
export { type ScreencastFrame, type ScreencastOptions, jpegSize } from './screencast';
export type { BrowserTelemetry } from './telemetry';
export {
  BROWSER_TELEMETRY_KEYS,
  type BrowserTelemetryKey,
  PAGE_TOOL_IDS,
  browserEnvironmentRules,
  browserTelemetryReading,
} from './environment-rules';
export { renderCompact, type CompactSnapshot } from './snapshot/compact-render';

/** Ids of the family, in catalog order (docs/architecture.md#tool-families). */
export const BROWSER_TOOL_IDS = [
  'browser_navigate',
  'browser_click',
  'browser_input',
  'browser_scroll',
  'browser_select',
  'browser_screenshot',
  'browser_snapshot',
  'browser_toggle',
  'browser_show',
  'browser_download_list',
  'browser_file_upload',
  'browser_date_input',
  'browser_context_summary',
  'browser_network_log',
  'browser_debug_dump',
] as const;

export const BROWSER_TOOLSET = defineToolset(
  'browser',
  'A Chromium: open pages, read them, click, type, scroll, screenshots, downloads.',
);

export function browserTools(deps: BrowserToolDeps): Tool[] {
  deps.manager.useDownloadsDir(join(deps.workspaceRoot, 'downloads'));
  deps.manager.useWorkspace(deps.workspaceRoot);
  const tools = [
    browserNavigate(deps),
    browserClick(deps),
    browserInput(deps),
    browserScroll(deps),
    browserSelect(deps),
    browserScreenshot(deps),
    browserSnapshot(deps),
    browserToggle(deps),
    browserShow(deps),
    browserDownloadList(deps),
    browserFileUpload(deps),
    browserDateInput(deps),
    browserContextSummary(deps),
    browserNetworkLog(deps),
    browserDebugDump(deps),
  ];
  return tools as Tool[];
}
