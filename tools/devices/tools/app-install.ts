/**
 * app_install: an APK from the workspace (the path guard keeps it inside), pushed with the sync
 * protocol under /data/local/tmp with progress notifications, installed with `pm install`, then
 * the pushed copy removed. The new package is named by comparing the package list before and after.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { WORKSPACE_PATH } from '../../core/fields';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import { resolveInsideRoot } from '../../files/path-guard';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { type DeviceCall, defineDeviceTool } from './device-tool';
import { firstLines } from './arguments';

/**
 * The remote file keeps the APK's name (phones and the virtual device read the package from it), limited to safe
 * characters.
 */
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

/** pm's refusal as an error that names the setting or argument that fixes it. */
function installFailure(output: string, file: string, serial: string): ToolCallError {
  const reason = /Failure \[([^\]]+)\]/.exec(output)?.[1] ?? firstLines(output);
  if (/INSTALL_FAILED_USER_RESTRICTED/.test(reason))
    return new ToolCallError(
      'PERMISSION_DENIED',
      `${serial} refused to install ${file} from adb (${reason}): ` +
        'its OEM security blocks installs over USB until a setting is on.',
      {
        hint:
          'On Xiaomi, Redmi and POCO phones (MIUI, HyperOS) turn on Settings > Additional settings > ' +
          'Developer options > "Install via USB" (it needs a signed-in Mi account and a SIM card); ' +
          'some builds also show a prompt on the phone to accept. Then retry.',
        data: { reason, setting: 'Install via USB' },
      },
    );
  if (/INSTALL_FAILED_DEPRECATED_SDK_VERSION/.test(reason))
    return new ToolCallError(
      'UNSUPPORTED',
      `${serial} refuses ${file} because it targets an old Android (${reason}).`,
      {
        hint:
          'Rebuild the app with a newer targetSdkVersion, or, for an APK you trust, retry with ' +
          'allowLowTargetSdk=true (pm install --bypass-low-target-sdk-block).',
        data: { reason, argument: 'allowLowTargetSdk' },
      },
    );
  if (/Unknown option --bypass-low-target-sdk-block/.test(output))
    return new ToolCallError(
      'INVALID_ARGUMENT',
      `${serial} runs an Android before 14, whose pm has no low-target-SDK block to bypass.`,
      { hint: 'Retry without allowLowTargetSdk.', data: { fields: ['allowLowTargetSdk'] } },
    );
  const hint = /ALREADY_EXISTS/.test(reason)
    ? 'The app is already installed; retry with replace=true.'
    : /INVALID_APK|PARSE/.test(reason)
      ? 'The file is not a valid APK; rebuild it.'
      : /UPDATE_INCOMPATIBLE|VERSION_DOWNGRADE/.test(reason)
        ? 'An incompatible version is installed; uninstall it first (app_uninstall), then retry.'
        : 'Read the reason; do not retry unchanged.';
  return new ToolCallError('EXECUTION_FAILED', `Installing ${file} failed: ${reason}.`, { hint, data: { reason } });
}

export function appInstallTool(service: DeviceService, workspaceRoot: string): Tool {
  return defineDeviceTool(service, {
    id: 'app_install',
    title: 'Install an APK',
    description: 'Installs an APK of the workspace on the device, replacing an installed one and keeping its data.',
    input: {
      path: WORKSPACE_PATH.min(1),
      replace: z.boolean().default(true),
      grantPermissions: z.boolean().default(false).describe('Grant its runtime permissions.'),
      allowLowTargetSdk: z
        .boolean()
        .default(false)
        .describe('For an old targetSdk Android 14+ refuses; only an APK you trust.'),
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
        // Some skins show an install prompt; replacing the app on screen restarts it.
        service.telemetry.invalidate(device.serial);
        const flags =
          `${args.replace ? ' -r' : ''}${args.grantPermissions ? ' -g' : ''}` +
          `${args.allowLowTargetSdk ? ' --bypass-low-target-sdk-block' : ''}`;
        const r = await device.run(`pm install${flags} ${sh`${remote}`}`, { timeoutMs: 120_000 });
        if (!/^Success/m.test(r.output)) throw installFailure(r.output, basename(local), device.serial);
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
