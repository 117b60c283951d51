/**
 * What every terminal tool shares: the open terminals, the sandbox, the approvals, the folders a
 * terminal may start in, the settings the family reads, and the phones (when the host has them).
 */
import type { DeviceService } from '../devices';
import type { TerminalApprovals } from './approvals';
import type { Sandbox } from './sandbox/sandbox';
import type { TerminalManager } from './terminal-manager';
import type { WorkspaceRoots } from './workspaces';

export interface TerminalSettings {
  /** terminalHostEnabled: the person lets agents open shells on this machine. */
  hostEnabled(): boolean;
  /** terminalWorkspaces: more folders a terminal may start in. */
  workspaces(): string | undefined;
  /** terminalUbuntuSource: an Ubuntu mirror URL or a rootfs tarball path. */
  ubuntuSource(): string | undefined;
}

export interface TerminalContext {
  manager: TerminalManager;
  sandbox: Sandbox;
  approvals: TerminalApprovals;
  roots: WorkspaceRoots;
  settings: TerminalSettings;
  devices: DeviceService | undefined;
  debootstrap: string;
  debootstrapCache: string;
  /** Where debootstrap's per-distribution scripts live (a release without one cannot be bootstrapped). */
  debootstrapScripts: string;
}
