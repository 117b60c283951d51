/**
 * Registers every tool family with the host's registry and keeps the handles the host needs to
 * report status (devices, browser) and to shut them down. Families that need a real component
 * (adb, a browser) start it lazily, on the first call that needs it.
 */
import { join } from 'node:path';
import type { HostEvent, HostInfo } from '../../shared/contract';
import { BrowserManager, browserTools } from '../browser';
import { createBrowserSurface } from './browser-surface';
import { dataDirSecrets } from './data-dir';
import type { BrowserSurface, DeviceSurface } from './surfaces';
import type { Db } from './store/database';
import type { ToolRegistry } from '../core/registry';
import type { TraceSpan } from '../core/trace-span';
import type { EnvironmentGate, TelemetryStore } from '../core/pipeline';
import type { ApprovalDecider } from '../core/permission';
import type { SelfGuard } from '../common/self-guard';
import { type CommandApprover, createDeviceService, deviceEnvironmentRules, deviceTools } from '../devices';
import { type VirtualDemoOptions, attachVirtualDevice } from '../devices/virtual-demo';
import type { ScreenHubOptions } from '../devices';
import { createDeviceSurface } from './device-surface';
import { type ShortcutStore, orchestrationTools } from '../orchestration';
import { networkTools } from '../network';
import { memoryTools } from '../memory';
import { mcpClientTools } from '../mcp-client';
import type { HostSettings } from './host-settings';
import { filesTools } from '../files';
import { structuredTools } from '../structured';
import { utilityTools } from '../utility';

export interface FamilyDeps {
  registry: ToolRegistry;
  db: Db;
  workspaceRoot: string;
  dataDir: string;
  shortcutStore: ShortcutStore;
  traceSpans: () => readonly TraceSpan[];
  telemetry: TelemetryStore | undefined;
  virtualDevice: boolean;
  virtualDeviceOptions?: VirtualDemoOptions;
  /** Live screens' options (screenrecord's time limit, viewer windows). */
  screens?: ScreenHubOptions;
  /** Overrides the adbPort setting. */
  adbPort?: number;
  settings: HostSettings;
  emit: (event: HostEvent) => void;
  /** The pipeline's environment gate, for the device rules; undefined when the gate is off. */
  environment: EnvironmentGate | undefined;
  /** Asks a person about a shell command (shell_execute's own gate). */
  approveCommand: CommandApprover;
  /** Asks a person from inside a running tool (a download a page started), through the same queue and audit. */
  askPerson: ApprovalDecider;
  /** Toolgate itself (its port, its data dir), which no tool may reach. */
  self: SelfGuard;
  log: (line: string) => void;
}

export interface FamilyHandles {
  devices(): HostInfo['devices'];
  browser(): HostInfo['browser'];
  deviceSurface?: DeviceSurface;
  browserSurface?: BrowserSurface;
  close(): Promise<void>;
}

export async function registerFamilies(deps: FamilyDeps): Promise<FamilyHandles> {
  const { registry } = deps;
  const telemetryRead = (key: string) => deps.telemetry?.read(key)?.value;
  const { settings } = deps;
  registry.registerAll(
    orchestrationTools({
      registry,
      shortcutStore: deps.shortcutStore,
      traceSpans: deps.traceSpans,
      telemetry: telemetryRead,
    }),
  );
  registry.registerAll(
    networkTools({
      workspaceRoot: deps.workspaceRoot,
      webSearchEndpoint: () => settings.get('webSearchEndpoint'),
      blockPrivateAddresses: () => settings.get('networkBlockPrivateAddresses') ?? false,
      self: deps.self,
    }),
  );
  registry.registerAll(memoryTools({ db: deps.db }));
  registry.registerAll(filesTools({ workspaceRoot: deps.workspaceRoot, secretFiles: dataDirSecrets(deps.dataDir) }));
  registry.registerAll(structuredTools({ workspaceRoot: deps.workspaceRoot }));
  registry.registerAll(utilityTools());
  const mcp = mcpClientTools({ registry, self: deps.self });
  registry.registerAll(mcp.tools);

  const browserSettings = settings.current();
  const browserManager = new BrowserManager({
    ...(browserSettings.browserExecutablePath ? { executablePath: browserSettings.browserExecutablePath } : {}),
    ...(browserSettings.browserCdpEndpoint ? { cdpEndpoint: browserSettings.browserCdpEndpoint } : {}),
    ...(browserSettings.browserPlaywrightServer ? { playwrightServer: browserSettings.browserPlaywrightServer } : {}),
    headless: browserSettings.browserHeadless ?? true,
    ...(browserSettings.browserPersistentProfile ? { userDataDir: join(deps.dataDir, 'browser-profile') } : {}),
    downloadsDir: join(deps.workspaceRoot, 'downloads'),
    pendingDownloadsDir: join(deps.dataDir, 'browser-downloads'),
    workspaceRoot: deps.workspaceRoot,
    self: deps.self,
    approveDownload: deps.askPerson,
  });
  registry.registerAll(
    browserTools({
      manager: browserManager,
      workspaceRoot: deps.workspaceRoot,
      onShow: (info) =>
        deps.emit({ type: 'browser-show', url: info.url, ...(info.reason ? { reason: info.reason } : {}) }),
    }),
  );
  const browserSurface = createBrowserSurface(browserManager);

  const deviceService = createDeviceService({
    ...(deps.telemetry ? { telemetry: deps.telemetry } : {}),
    ...(settings.current().adbHost ? { adbHost: settings.current().adbHost } : {}),
    ...((deps.adbPort ?? settings.current().adbPort) ? { adbPort: deps.adbPort ?? settings.current().adbPort } : {}),
    ...(deps.screens ? { screens: deps.screens } : {}),
  });
  registry.registerAll(
    deviceTools({ service: deviceService, workspaceRoot: deps.workspaceRoot, approveCommand: deps.approveCommand }),
  );
  for (const rule of deviceEnvironmentRules(deviceService)) deps.environment?.addRule(rule);
  deviceService.onDevicesChanged(() => deps.emit({ type: 'devices-changed' }));
  const deviceSurface = createDeviceSurface(deviceService);
  // adb is started now so the Devices page lists phones at once; without adb the tools say how to install it.
  const adbStarting = deviceService.start().catch((e: unknown) => deps.log(`devices: ${(e as Error).message}`));
  const demo = deps.virtualDevice
    ? await attachVirtualDevice(deviceService, deps.virtualDeviceOptions).catch((e: unknown) => {
        deps.log(`virtual device could not start: ${(e as Error).message}`);
        return undefined;
      })
    : undefined;
  if (demo) deps.log(`virtual device ${demo.serial} attached (demo phone)`);

  return {
    devices: () =>
      deviceService
        .devices()
        .map((d) => ({ serial: d.serial, state: d.state, ...(d.model ? { model: d.model } : {}) })),
    deviceSurface,
    browser: () => {
      const t = browserManager.telemetry();
      return { started: t.started, tabs: browserManager.tabsNow().length, ...(t.url ? { url: t.url } : {}) };
    },
    browserSurface,
    close: async () => {
      deviceSurface.dispose();
      // A shutdown right after start must not leave an adb server starting behind it.
      await adbStarting;
      await demo?.close().catch(() => undefined);
      await deviceService.close().catch(() => undefined);
      browserSurface.dispose();
      await mcp.manager.dispose();
      await browserManager.close();
    },
  };
}
