/**
 * Registers every tool family with the host's registry and keeps the handles the host needs to
 * report status (devices, browser) and to shut them down. Families that need a real component
 * (adb, a browser) start it lazily, on the first call that needs it. Every family registers its
 * tools as the members of its toolset (`registerToolset`): a tool in no toolset is never listed to
 * an MCP client, and test/host/toolsets.test.ts fails for it.
 */
import { join } from 'node:path';
import type { HostEvent, HostInfo } from '../../shared/contract';
import {
  BROWSER_TELEMETRY_KEYS,
  BROWSER_TOOLSET,
  BrowserManager,
  browserEnvironmentRules,
  browserTelemetryReading,
  browserTools,
} from '../browser';
import type { CallObserver } from '../core/call-observer';
import type { HostTelemetry } from './host-telemetry';
import { PRECONDITION_KEYS } from './precondition-keys';
import { createBrowserSurface } from './browser-surface';
import { dataDirSecrets } from './data-dir';
import type { BrowserSurface, DeviceSurface } from './surfaces';
import type { Db } from './store/database';
import type { ToolRegistry } from '../core/registry';
import type { TraceSpan } from '../core/trace-span';
import type { EnvironmentGate } from '../core/pipeline';
import type { ApprovalDecider } from '../core/permission';
import type { SelfGuard } from '../common/self-guard';
import {
  type CommandApprover,
  type ScreenHubOptions,
  adbPortFromEnv,
  createDeviceService,
  deviceEnvironmentRules,
  deviceToolsets,
} from '../devices';
import { type VirtualDemoOptions, attachVirtualDevice } from '../devices/virtual-demo';
import type { ProfileName } from '../devices/virtual/profiles';
import { createDeviceSurface } from './device-surface';
import { type ShortcutStore, orchestrationToolsets } from '../orchestration';
import { NETWORK_TOOLSET, networkTools } from '../network';
import { MEMORY_TOOLSET, memoryTools } from '../memory';
import { MCP_CLIENT_TOOLSET, mcpClientTools } from '../mcp-client';
import type { HostSettings } from './host-settings';
import { FILES_TOOLSET, type FilesOptions, filesTools } from '../files';
import { SKILLS_TOOLSET, type SkillsFamily, type SkillScriptRunner, skillsFamily } from '../skills';
import { SkillDirGuard } from '../skills/skill-dir-guard';
import { type GithubConnector, type GithubTokenStore, fileTokenStore, githubFamily } from '../github';
import { STRUCTURED_TOOLSET, structuredTools } from '../structured';
import { utilityTools } from '../utility';
import { macroCandidates } from './macro-candidates';
import { AuditStore } from './store/audit-store';
import { SqliteSkillStore } from './store/skill-store';
import { HOST_VERSION } from './version';
import { type TerminalApprover, type TerminalOptions, terminalFamily } from '../terminal';
import { type TerminalSurface, createTerminalSurface } from './terminal-surface';
import { TOOLSETS_TOOLSET } from './toolsets/profile';
import type { SessionToolsets } from './toolsets/session-toolsets';
import { toolsetTools } from './toolsets/toolset-tools';

export interface FamilyDeps {
  registry: ToolRegistry;
  /** Each MCP session's toolsets, which the three toolset tools read and change. */
  sessionToolsets: SessionToolsets;
  db: Db;
  workspaceRoot: string;
  dataDir: string;
  shortcutStore: ShortcutStore;
  traceSpans: () => readonly TraceSpan[];
  /** The store the device family writes and the environment gate reads; the browser adds its readings to it. */
  telemetry: HostTelemetry | undefined;
  /** Fresh telemetry values for shortcut preconditions (undefined when missing or stale: unknown). */
  shortcutTelemetry: (key: string) => unknown;
  /** Sees every batch and shortcut step (the host keeps their arguments in memory). */
  observer?: CallObserver;
  /** Whether two calls gave a field the same value (from the host's memory), for shortcut drafts. */
  sameArgument?: (callA: string, callB: string, field: string) => boolean | undefined;
  /** Attach the virtual phone: true for the default profile, or a profile's name. */
  virtualDevice: boolean | ProfileName;
  /** The demo phone's display size and cable (`serve --screen WxH --link usb2|wifi`). */
  virtualDeviceOptions?: Omit<VirtualDemoOptions, 'profile'>;
  /** Live screens' options (screenrecord's time limit, viewer windows). */
  screens?: ScreenHubOptions;
  /** Overrides the adbPort setting (which overrides ANDROID_ADB_SERVER_PORT in `env`). */
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
  /** Asks a person from inside a running tool (the terminal family's keys, commands and installs). */
  approve: TerminalApprover;
  terminal?: TerminalOptions;
  log: (line: string) => void;
  /** The environment (TOOLGATE_GITHUB_TOKEN). */
  env: NodeJS.ProcessEnv;
  /**
   * Where a GitHub token set in the UI is kept; default a 0600 file in the data dir (the desktop shell passes
   * safeStorage).
   */
  githubTokens?: GithubTokenStore;
  /** The sandbox skills' scripts run in (the terminal family); without it they answer UNSUPPORTED. */
  skillScripts?: SkillScriptRunner;
}

export interface FamilyHandles {
  devices(): HostInfo['devices'];
  browser(): HostInfo['browser'];
  deviceSurface?: DeviceSurface;
  browserSurface?: BrowserSurface;
  skills: SkillsFamily;
  github: GithubConnector;
  terminalSurface?: TerminalSurface;
  close(): Promise<void>;
}

export async function registerFamilies(deps: FamilyDeps): Promise<FamilyHandles> {
  const { registry } = deps;
  const { settings } = deps;
  registry.registerToolset(TOOLSETS_TOOLSET, toolsetTools(registry, deps.sessionToolsets));
  const orchestration = orchestrationToolsets({
    registry,
    shortcutStore: deps.shortcutStore,
    traceSpans: deps.traceSpans,
    telemetry: deps.shortcutTelemetry,
    preconditionKeys: PRECONDITION_KEYS,
    ...(deps.observer ? { observer: deps.observer } : {}),
    ...(deps.sameArgument ? { sameArgument: deps.sameArgument } : {}),
  });
  for (const group of orchestration) registry.registerToolset(group.toolset, group.tools);
  registry.registerToolset(
    NETWORK_TOOLSET,
    networkTools({
      workspaceRoot: deps.workspaceRoot,
      webSearchEndpoint: () => settings.get('webSearchEndpoint'),
      blockPrivateAddresses: () => settings.get('networkBlockPrivateAddresses') ?? false,
      self: deps.self,
    }),
  );
  const skillsDir = join(deps.dataDir, 'skills');
  const skillDirs = new SkillDirGuard(skillsDir);
  const hostSecrets = dataDirSecrets(deps.dataDir);
  const files: FilesOptions = {
    workspaceRoot: deps.workspaceRoot,
    secretFiles: (q) => hostSecrets(q) || skillDirs.secretFiles(q),
  };
  const skills = skillsFamily({
    registry,
    store: new SqliteSkillStore(deps.db),
    dir: skillsDir,
    files,
    self: deps.self,
    telemetry: deps.shortcutTelemetry,
    sourceFolder: () => settings.get('skillSourceFolder'),
    indexUrl: () => settings.get('skillIndexUrl'),
    ...(deps.skillScripts ? { scripts: deps.skillScripts } : {}),
  });
  const audit = new AuditStore(deps.db);
  registry.registerToolset(
    MEMORY_TOOLSET,
    memoryTools({
      db: deps.db,
      episodes: { spans: deps.traceSpans, approvals: () => audit.recent(5000) },
      macros: () =>
        macroCandidates({
          registry,
          shortcuts: deps.shortcutStore,
          skills: skills.catalog,
          traceSpans: deps.traceSpans,
        }),
    }),
  );
  registry.registerToolset(FILES_TOOLSET, filesTools(files));
  registry.registerToolset(STRUCTURED_TOOLSET, [
    ...structuredTools({ workspaceRoot: deps.workspaceRoot }),
    ...utilityTools(),
  ]);
  const mcp = mcpClientTools({ registry, self: deps.self });
  registry.registerToolset(MCP_CLIENT_TOOLSET, mcp.tools);

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
  registry.registerToolset(
    BROWSER_TOOLSET,
    browserTools({
      manager: browserManager,
      workspaceRoot: deps.workspaceRoot,
      onShow: (info) =>
        deps.emit({ type: 'browser-show', url: info.url, ...(info.reason ? { reason: info.reason } : {}) }),
    }),
  );
  const browserSurface = createBrowserSurface(browserManager);
  for (const rule of browserEnvironmentRules(browserManager)) deps.environment?.addRule(rule);
  deps.telemetry?.addSource({
    keys: () => Object.keys(BROWSER_TELEMETRY_KEYS),
    handles: (key) => key in BROWSER_TELEMETRY_KEYS,
    read: (key) => browserTelemetryReading(browserManager, key),
  });

  // The setting wins; without one, the port the adb CLI would use in this environment.
  const adbPort = deps.adbPort ?? settings.current().adbPort ?? adbPortFromEnv(deps.env);
  const deviceService = createDeviceService({
    ...(deps.telemetry ? { telemetry: deps.telemetry } : {}),
    ...(settings.current().adbHost ? { adbHost: settings.current().adbHost } : {}),
    ...(adbPort ? { adbPort } : {}),
    ...(deps.screens ? { screens: deps.screens } : {}),
  });
  for (const group of deviceToolsets({
    service: deviceService,
    workspaceRoot: deps.workspaceRoot,
    approveCommand: deps.approveCommand,
  }))
    registry.registerToolset(group.toolset, group.tools);
  for (const rule of deviceEnvironmentRules(deviceService)) deps.environment?.addRule(rule);
  deviceService.onDevicesChanged(() => deps.emit({ type: 'devices-changed' }));
  const deviceSurface = createDeviceSurface(deviceService);
  // adb is started now so the Devices page lists phones at once; without adb the tools say how to install it.
  const adbStarting = deviceService.start().catch((e: unknown) => deps.log(`devices: ${(e as Error).message}`));
  const demo = deps.virtualDevice
    ? await attachVirtualDevice(deviceService, {
        ...(typeof deps.virtualDevice === 'string' ? { profile: deps.virtualDevice } : {}),
        ...deps.virtualDeviceOptions,
      }).catch((e: unknown) => {
        deps.log(`virtual device could not start: ${(e as Error).message}`);
        return undefined;
      })
    : undefined;
  if (demo) deps.log(`virtual device ${demo.serial} attached (demo phone)`);

  // Skills last: the tools they declare are checked against every other family's.
  registry.registerToolset(SKILLS_TOOLSET, skills.tools);
  const started = await skills.start();
  for (const p of started.problems) deps.log(`skill ${p.name}: ${p.reason}`);
  skillDirs.refresh();
  skills.catalog.onChange(() => {
    skillDirs.refresh();
    deps.emit({ type: 'skills-changed' });
  });
  const { connector: github } = githubFamily({
    registry,
    tokens: deps.githubTokens ?? fileTokenStore(join(deps.dataDir, 'github-token')),
    env: deps.env,
    apiUrl: () => settings.get('githubApiUrl'),
    userAgent: `Toolgate/${HOST_VERSION}`,
    self: deps.self,
  });
  github.sync();
  const terminals = terminalFamily({
    ...deps.terminal,
    dataDir: deps.dataDir,
    workspaceRoot: deps.workspaceRoot,
    devices: deviceService,
    approve: deps.approve,
    settings: {
      hostEnabled: () => settings.get('terminalHostEnabled') ?? false,
      workspaces: () => settings.get('terminalWorkspaces'),
      ubuntuSource: () => settings.get('terminalUbuntuSource'),
    },
  });
  for (const group of terminals.toolsets) registry.registerToolset(group.toolset, group.tools);
  const terminalSurface = createTerminalSurface(terminals.manager, deps.emit);
  // Turning host terminals off closes the open ones at once.
  const hostSwitch = settings.onChange((now) => {
    if (!now.terminalHostEnabled) void terminals.manager.closeWhere((t) => t.info.kind === 'host');
  });

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
    skills,
    github,
    terminalSurface,
    close: async () => {
      hostSwitch.dispose();
      terminalSurface.dispose();
      await terminals.close();
      deviceSurface.dispose();
      // A shutdown right after start must not leave an adb server starting behind it.
      await adbStarting;
      await demo?.close().catch(() => undefined);
      await deviceService.close().catch(() => undefined);
      browserSurface.dispose();
      await mcp.manager.dispose();
      await browserManager.close();
      github.dispose();
    },
  };
}
