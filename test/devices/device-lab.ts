/**
 * A device lab for one test file: a private adb server (its own port, so devices of test files
 * running in parallel never show up here and "the only attached device" means this file's
 * device), virtual devices connected to it, the device service and the twenty tools behind the
 * pipeline the host runs (test/support/family-pipeline.ts), wired as tools/host/families.ts wires
 * the family: the service writes the host's telemetry, its rules are in the environment gate, and
 * shell_execute's and get_set_settings' in-tool approvals go through the gate unless the lab is
 * given its own approver. `call` is a call as an agent makes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressUpdate, ToolRegistry, ToolResult } from '../../tools/core';
import {
  type CommandApprover,
  type DeviceService,
  createDeviceService,
  deviceEnvironmentRules,
  deviceTools,
} from '../../tools/devices';
import type { DeviceServiceOptions } from '../../tools/devices/device-service';
import {
  connectToAdb,
  type DeviceProfile,
  disconnectFromAdb,
  type ProfileName,
  runAdb,
  startVirtualDevice,
  type VirtualDevice,
} from '../../tools/devices/virtual';
import { type FamilyPipeline, type PersonDecides, familyPipeline } from '../support/family-pipeline';
import { laneCommand } from '../../tools/devices/manager/shell-lane';
import { requireAdb } from '../support/requirements';

export interface DeviceLab {
  port: number;
  service: DeviceService;
  devices: VirtualDevice[];
  registry: ToolRegistry;
  /** The pipeline the calls go through: its trace, breakers, gate and what a person was asked. */
  family: FamilyPipeline;
  workspace: string;
  call(
    toolId: string,
    args?: Record<string, unknown>,
    opts?: { onProgress?: (p: ProgressUpdate) => void; sessionId?: string },
  ): Promise<ToolResult>;
  /** Starts one more virtual device (of the lab's profile unless told) and connects it to this lab's adb server. */
  addDevice(profile?: ProfileName | DeviceProfile): Promise<VirtualDevice>;
  /** Disconnects and closes one device. */
  removeDevice(device: VirtualDevice): Promise<void>;
  close(): Promise<void>;
}

export interface LabOptions extends Omit<DeviceServiceOptions, 'adbPort'> {
  devices?: number;
  /** shell_execute's and get_set_settings' approver; the pipeline's in-tool approval (as the host's) when absent. */
  approveCommand?: CommandApprover;
  /** What the person answers the pipeline; approve once when absent. */
  decide?: PersonDecides;
  /** The family of phones the lab's virtual devices answer as (default `pixel`). */
  profile?: ProfileName;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function startDeviceLab(opts: LabOptions = {}): Promise<DeviceLab> {
  requireAdb();
  const port = await freePort();
  // The adb CLI (adb connect / devices, used by the virtual device's helpers) follows this variable.
  process.env.ANDROID_ADB_SERVER_PORT = String(port);
  await runAdb(['-P', String(port), 'start-server']);
  const { devices: count = 1, approveCommand, decide, profile: labProfile, ...serviceOptions } = opts;
  const family = familyPipeline(decide ? { decide } : {});
  const service = createDeviceService({ telemetry: family.telemetry, ...serviceOptions, adbPort: port });
  const workspace = mkdtempSync(join(tmpdir(), 'toolgate-device-ws-'));
  family.registry.registerAll(
    deviceTools({ service, workspaceRoot: workspace, approveCommand: approveCommand ?? family.askInTool }),
  );
  family.addRules(deviceEnvironmentRules(service));
  const devices: VirtualDevice[] = [];

  const lab: DeviceLab = {
    port,
    service,
    devices,
    registry: family.registry,
    family,
    workspace,
    call: (toolId, args = {}, callOpts = {}) =>
      family.call(toolId, args, {
        ...(callOpts.onProgress ? { onProgress: callOpts.onProgress } : {}),
        ...(callOpts.sessionId ? { sessionId: callOpts.sessionId } : {}),
      }),
    async addDevice(profile = labProfile) {
      const device = await startVirtualDevice(profile ? { profile } : {});
      await connectToAdb(device);
      devices.push(device);
      await service.manager.tracker.check();
      return device;
    },
    async removeDevice(device) {
      device.faults = {};
      await disconnectFromAdb(device.serial);
      await device.close();
      devices.splice(devices.indexOf(device), 1);
      await service.manager.tracker.check().catch(() => undefined);
    },
    async close() {
      for (const device of [...devices]) await lab.removeDevice(device);
      await service.close();
      await runAdb(['-P', String(port), 'kill-server']).catch(() => undefined);
      rmSync(workspace, { recursive: true, force: true });
    },
  };
  await service.start();
  for (let i = 0; i < count; i++) await lab.addDevice();
  return lab;
}

/**
 * The command a line of the phone's command log carries, however the host sent it: on the phone's
 * shell lane (tools/devices/manager/shell-lane.ts), or on a `shell:` stream of its own (without
 * the exit-status line the host appends there).
 */
export function sentCommand(line: string): string {
  return laneCommand(line) ?? line.replace(/\necho __toolgate_exit=\$\?$/, '');
}

/** The text of a result, or the error rendered as `CODE: message`. */
export function textOf(result: ToolResult): string {
  if (!result.ok) return `${result.error.code}: ${result.error.message}`;
  return result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}

/** The structured part of a JSON result. */
export function jsonOf<T = Record<string, unknown>>(result: ToolResult): T {
  if (!result.ok) throw new Error(`expected a success, got ${result.error.code}: ${result.error.message}`);
  return result.structured as T;
}
