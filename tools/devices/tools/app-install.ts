/**
 * app_install: an APK from the workspace (the path guard keeps it inside), pushed with the sync
 * protocol under /data/local/tmp with progress notifications, installed with `pm install`, then
 * the pushed copy removed. The new package is named by comparing the package list before and after.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import { resolveInsideRoot } from '../../files/path-guard';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { type DeviceCall, defineDeviceTool } from './device-tool';
import { firstLines } from './arguments';

/** The remote file keeps the APK's name (phones and the virtual device read the package from it), limited to safe characters. */
export function remoteApkPath(localPath: string): string {
  const name = basename(localPath)
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .slice(-100);
  return `/data/local/tmp/${name}`;
}

async function packages(device: DeviceCall): Promise<Set<string>> {
  const r = await device.run('pm list packages');
  return new Set(
    r.output
      .split('\n')
      .map((l) => l.trim().replace(/^package:/, ''))
      .filter(Boolean),
  );
}

export function appInstallTool(service: DeviceService, workspaceRoot: string): Tool {
  return defineDeviceTool(service, {
    id: 'app_install',
    title: 'Install an APK',
    description:
      'Installs an APK file from the workspace on the device (reporting upload progress). By default an installed app of the same package is replaced, keeping its data.',
    input: {
      path: z.string().min(1).describe('Workspace-relative path of the .apk file, e.g. "builds/app-debug.apk".'),
      replace: z
        .boolean()
        .default(true)
        .describe('Replace the app if it is already installed (pm install -r); default true.'),
      grantPermissions: z
        .boolean()
        .default(false)
        .describe('Grant all runtime permissions the app declares (pm install -g).'),
    },
    metadata: { category: 'apps', risk: 'HIGH', tags: ['device', 'apps'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    },
    async run(args, device, ctx) {
      const local = await resolveInsideRoot(workspaceRoot, args.path);
      const info = await stat(local).catch(() => null);
      if (!info)
        throw new ToolCallError('NOT_FOUND', `No file at "${args.path}" in the workspace.`, {
          hint: 'Use list_files or glob_files to find the APK.',
          data: { fields: ['path'] },
        });
      if (!info.isFile())
        throw new ToolCallError('INVALID_ARGUMENT', `"${args.path}" is not a file.`, { data: { fields: ['path'] } });
      if (!/\.apk$/i.test(local))
        throw new ToolCallError('INVALID_ARGUMENT', `"${args.path}" is not an .apk file.`, {
          hint: 'Pass the path of an Android package ending in .apk.',
          data: { fields: ['path'] },
        });

      const remote = remoteApkPath(local);
      const before = await packages(device);
      const timeoutMs = 30_000 + Math.ceil(info.size / (256 * 1024)) * 1_000; // generous for USB 2 and Wi-Fi
      ctx.progress({ progress: 0, total: info.size, message: `uploading ${basename(local)}` });
      await service.manager.push(device.serial, local, remote, {
        timeoutMs,
        signal: ctx.signal,
        onProgress: (bytes) =>
          ctx.progress({ progress: bytes, total: info.size, message: `uploading ${basename(local)}` }),
      });
      try {
        ctx.progress({ progress: info.size, total: info.size, message: 'installing' });
        const flags = `${args.replace ? ' -r' : ''}${args.grantPermissions ? ' -g' : ''}`;
        const r = await device.run(`pm install${flags} ${sh`${remote}`}`, { timeoutMs: 120_000 });
        if (!/^Success/m.test(r.output)) {
          const reason = /Failure \[([^\]]+)\]/.exec(r.output)?.[1] ?? firstLines(r.output);
          const hint = /ALREADY_EXISTS/.test(reason)
            ? 'The app is already installed; retry with replace=true.'
            : /INVALID_APK|PARSE/.test(reason)
              ? 'The file is not a valid APK; rebuild it.'
              : /UPDATE_INCOMPATIBLE|VERSION_DOWNGRADE/.test(reason)
                ? 'An incompatible version is installed; uninstall it first (app_uninstall), then retry.'
                : 'Read the reason; do not retry unchanged.';
          throw new ToolCallError('EXECUTION_FAILED', `Installing ${basename(local)} failed: ${reason}.`, {
            hint,
            data: { reason },
          });
        }
      } finally {
        await device.run(sh`rm -f ${remote}`).catch(() => undefined);
      }
      const added = [...(await packages(device))].filter((p) => !before.has(p));
      const what = added.length > 0 ? `installed ${added.join(', ')}` : 'replaced an installed package';
      return success(`Installed ${basename(local)} (${info.size} bytes) on ${device.serial}: ${what}.`, {
        serial: device.serial,
        file: args.path,
        bytes: info.size,
        newPackages: added,
      });
    },
  });
}
