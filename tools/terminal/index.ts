/**
 * The terminal family (docs/architecture.md#tool-families): the seed's 18 `terminal.*` tools, on
 * three backends. `sandbox` (the default) runs a Linux root file system under bubblewrap (PRoot
 * where bubblewrap cannot run) seeing only the workspace; `host` is a shell on this machine, off
 * until the person turns it on; `device:<serial>` is a phone's shell over adb with a PTY. On the
 * host and phones every key that could start a command asks the person and commands pass
 * shell_execute's gate; sandbox terminals ask only to turn the network on and to install or remove
 * packages. Terminals belong to the MCP client that opened them, survive its reconnects, close when
 * idle, and end every process they started when closed or when the host stops.
 */
import { join } from 'node:path';
import type { Tool } from '../core/tool';
import type { DeviceService } from '../devices';
import { type TerminalApprover, TerminalApprovals } from './approvals';
import { spawnDeviceShell } from './backends/device-backend';
import { spawnHostShell } from './backends/host-backend';
import type { TerminalContext, TerminalSettings } from './context';
import type { TerminalLimits } from './limits';
import { Sandbox } from './sandbox/sandbox';
import type { RunnerPaths } from './sandbox/sandbox-runner';
import { type Spawner, TerminalManager } from './terminal-manager';
import { backendsTool } from './tools/backends';
import { closeTool } from './tools/close';
import { createTool } from './tools/create';
import { linuxBootstrapTool } from './tools/linux-bootstrap';
import { linuxNetworkTool } from './tools/linux-network';
import { linuxPackagesTool } from './tools/linux-packages';
import { linuxStatusTool } from './tools/linux-status';
import { observeTool } from './tools/observe';
import { resizeTool } from './tools/resize';
import { runTool } from './tools/run';
import { signalTool } from './tools/signal';
import { snapshotTool } from './tools/snapshot';
import { ubuntuEnsureTool, ubuntuInstallTool, ubuntuStatusTool } from './tools/ubuntu';
import { waitTool } from './tools/wait';
import { workspacesTool } from './tools/workspaces';
import { writeTool } from './tools/write';
import { ToolCallError } from '../core/result';

export interface TerminalOptions {
  limits?: Partial<TerminalLimits>;
  /** Where bubblewrap and PRoot are (a missing one is reported as such). */
  runnerPaths?: Partial<RunnerPaths>;
  debootstrap?: string;
  /** Downloaded packages are kept here between bootstraps (default DATA/terminal/cache/debootstrap). */
  debootstrapCache?: string;
}

export interface TerminalFamilyDeps extends TerminalOptions {
  dataDir: string;
  /** The file tools' workspace: the default folder of a terminal. */
  workspaceRoot: string;
  settings: TerminalSettings;
  devices?: DeviceService;
  /** The host's approval port; without it everything that needs a person is refused. */
  approve?: TerminalApprover;
}

export interface TerminalFamily {
  tools: Tool[];
  manager: TerminalManager;
  sandbox: Sandbox;
  /** Ends every terminal (the host is stopping). */
  close(): Promise<void>;
}

export function terminalFamily(deps: TerminalFamilyDeps): TerminalFamily {
  const sandbox = new Sandbox({
    dataDir: deps.dataDir,
    ...(deps.runnerPaths ? { runnerPaths: deps.runnerPaths } : {}),
  });
  const spawn: Spawner = async (request, marker) => {
    const size = { cols: request.cols, rows: request.rows };
    if (request.kind === 'sandbox') {
      const s = sandbox.spawnTerminal(
        { ...size, marker, workspace: request.workspace ?? deps.workspaceRoot },
        request.rootfs,
      );
      return { process: s.process, rootfs: s.rootfs, network: s.network };
    }
    if (request.kind === 'host') {
      // Checked again here: the setting may have been turned off while the call waited.
      if (!deps.settings.hostEnabled())
        throw new ToolCallError('UNSUPPORTED', 'Terminals on this machine are off (terminalHostEnabled).', {
          data: { setting: 'terminalHostEnabled' },
        });
      return { process: spawnHostShell({ ...size, marker, workspace: request.workspace ?? deps.workspaceRoot }) };
    }
    if (!deps.devices) throw new ToolCallError('UNSUPPORTED', 'This host has no device support.');
    return { process: await spawnDeviceShell(deps.devices, request.backend.slice('device:'.length), size) };
  };
  const manager = new TerminalManager(spawn, deps.limits);
  const approvals = new TerminalApprovals(deps.approve);
  manager.onChange((c) => {
    if (c.type === 'closed') approvals.forgetTerminal(c.id);
  });
  const ctx: TerminalContext = {
    manager,
    sandbox,
    approvals,
    roots: { files: deps.workspaceRoot, configured: () => deps.settings.workspaces(), dataDir: deps.dataDir },
    settings: deps.settings,
    devices: deps.devices,
    debootstrap: deps.debootstrap ?? '/usr/sbin/debootstrap',
    debootstrapCache: deps.debootstrapCache ?? join(deps.dataDir, 'terminal', 'cache', 'debootstrap'),
    debootstrapScripts: '/usr/share/debootstrap/scripts',
  };
  const tools = [
    createTool(ctx),
    runTool(ctx),
    writeTool(ctx),
    observeTool(ctx),
    snapshotTool(ctx),
    waitTool(ctx),
    resizeTool(ctx),
    signalTool(ctx),
    closeTool(ctx),
    workspacesTool(ctx),
    backendsTool(ctx),
    linuxBootstrapTool(ctx),
    linuxStatusTool(ctx),
    linuxPackagesTool(ctx),
    linuxNetworkTool(ctx),
    ubuntuInstallTool(ctx),
    ubuntuEnsureTool(ctx),
    ubuntuStatusTool(ctx),
  ];
  return { tools, manager, sandbox, close: () => manager.closeAll() };
}

export { PERSON, TERMINALS_PAGE } from './owner';
export type { Terminal, TerminalInfo, RunRecord } from './terminal';
export type { TerminalManager, TerminalChange, TerminalOutput } from './terminal-manager';
export { terminalProcesses } from './process-scan';
export { RootfsStore } from './sandbox/rootfs-store';
export type { TerminalApprover } from './approvals';
