/** The apps family: list, launch, force-stop, uninstall and inspect installed packages (install is app-install.ts). */
import { z } from 'zod';
import { ToolCallError, jsonSuccess, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { type DeviceCall, defineDeviceTool } from './device-tool';
import { PACKAGE_NAME, SEPARATOR, firstLines, requireSuccess, splitParts } from './arguments';

const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
  sensitiveAction: false,
};

async function requireInstalled(device: DeviceCall, packageName: string): Promise<void> {
  const found = await device.run(sh`pm path ${packageName}`);
  if (found.exitCode === 0 && found.output.includes('package:')) return;
  throw new ToolCallError('NOT_FOUND', `Package ${packageName} is not installed on ${device.serial}.`, {
    hint: 'Call app_list to see the installed packages and use one of those names.',
    data: { packageName, fields: ['packageName'] },
  });
}

function foregroundNote(service: DeviceService, serial: string): string {
  const t = service.telemetry.snapshot(serial);
  if (t.locked?.value === true)
    return ' The phone is locked: the app shows once it is unlocked (ui_swipe up, or the user enters the PIN).';
  const fg = t.foreground?.value;
  return typeof fg === 'string' ? ` Foreground is now ${fg}.` : '';
}

export function appListTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'app_list',
    title: 'List installed apps',
    description: 'Lists the package names of the apps installed on the device, sorted.',
    input: {
      which: z.enum(['third-party', 'system', 'all']).default('third-party'),
      filter: z.string().max(200).optional().describe('Part of the name, in any case.'),
    },
    metadata: { category: 'apps', risk: 'LOW', tags: ['device', 'apps'] },
    annotations: READ,
    async run(args, device) {
      const flag = { 'third-party': ' -3', system: ' -s', all: '' }[args.which];
      const out = requireSuccess(await device.run(`pm list packages${flag}`), '`pm list packages`');
      const needle = args.filter?.toLowerCase();
      const names = out
        .split('\n')
        .map((l) => l.trim().replace(/^package:/, ''))
        .filter((n) => n !== '' && (!needle || n.toLowerCase().includes(needle)))
        .sort();
      const matching = args.filter ? ` matching "${args.filter}"` : '';
      const head = `${names.length} ${args.which} package(s) on ${device.serial}${matching}:`;
      return success(names.length > 0 ? `${head}\n${names.join('\n')}` : `${head} none.`, {
        serial: device.serial,
        packages: names,
      });
    },
  });
}

export function appLaunchTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'app_launch',
    title: 'Launch an app',
    description: 'Brings an installed app to the front, as its launcher icon does, or starts one of its activities.',
    input: {
      packageName: PACKAGE_NAME,
      activity: z
        .string()
        .regex(
          /^\.?[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/,
          'not an activity class name; expected ".MainActivity" or "com.example.app.MainActivity"',
        )
        .optional()
        .describe('e.g. ".MainActivity" or a full class name.'),
    },
    metadata: { category: 'apps', risk: 'MEDIUM', tags: ['device', 'apps'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    async run(args, device) {
      service.telemetry.invalidate(device.serial);
      if (args.activity) {
        const r = await device.run(sh`am start -W -n ${`${args.packageName}/${args.activity}`}`);
        if (r.exitCode !== 0 || /^Error/m.test(r.output)) {
          const missing = /does not exist|unable to resolve/i.test(r.output);
          throw new ToolCallError(
            missing ? 'NOT_FOUND' : 'EXECUTION_FAILED',
            `Could not start ${args.packageName}/${args.activity}: ${firstLines(r.output)}`,
            {
              hint: missing
                ? 'Check the activity name (app_info lists the activities) or omit it to launch the app normally.'
                : 'Read the error, then retry once.',
            },
          );
        }
      } else {
        const r = await device.run(sh`monkey -p ${args.packageName} -c android.intent.category.LAUNCHER 1`);
        // Monkey's own abort line (Logger.out, status −4), matched whole: the output also echoes every
        // argument ("  bash arg: PKG", ` arg: "PKG"`), so a word of the package name is no sign.
        if (r.exitCode !== 0 || /^\*\* No activities found to run, monkey aborted\./m.test(r.output)) {
          throw new ToolCallError(
            'NOT_FOUND',
            `${args.packageName} is not installed or has no launcher activity on ${device.serial}.`,
            {
              hint: 'Call app_list to check the name; apps without a launcher icon need an explicit activity.',
              data: { packageName: args.packageName },
            },
          );
        }
      }
      await service.telemetry.refresh(device.serial, { timeoutMs: 5_000 }).catch(() => undefined);
      return success(
        `Launched ${args.packageName}${args.activity ? `/${args.activity}` : ''}.` +
          foregroundNote(service, device.serial),
      );
    },
  });
}

export function appForceStopTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'app_force_stop',
    title: 'Force-stop an app',
    description: 'Force-stops an app, as "Force stop" in its settings does; unsaved work in it is lost.',
    input: { packageName: PACKAGE_NAME },
    metadata: { category: 'apps', risk: 'HIGH', tags: ['device', 'apps'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    changesUi: true,
    async run(args, device) {
      await requireInstalled(device, args.packageName);
      const pid = (await device.run(sh`pidof ${args.packageName}`)).output.trim();
      requireSuccess(await device.run(sh`am force-stop ${args.packageName}`), '`am force-stop`');
      return success(`Force-stopped ${args.packageName} (${pid ? `was running as pid ${pid}` : 'was not running'}).`);
    },
  });
}

export function appUninstallTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'app_uninstall',
    title: 'Uninstall an app',
    description: 'Uninstalls an app and (unless keepData) deletes its data. System apps cannot be uninstalled.',
    input: {
      packageName: PACKAGE_NAME,
      keepData: z.boolean().default(false),
    },
    metadata: { category: 'apps', risk: 'HIGH', tags: ['device', 'apps'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    async run(args, device) {
      await requireInstalled(device, args.packageName);
      // The app may be the one on screen: an earlier ui_dump is checked again.
      service.telemetry.invalidate(device.serial);
      const r = await device.run(
        args.keepData ? sh`pm uninstall -k ${args.packageName}` : sh`pm uninstall ${args.packageName}`,
      );
      if (!/^Success/m.test(r.output)) {
        const reason = /Failure \[([^\]]+)\]/.exec(r.output)?.[1] ?? firstLines(r.output);
        throw new ToolCallError('EXECUTION_FAILED', `Uninstalling ${args.packageName} failed: ${reason}.`, {
          hint: /DELETE_FAILED_INTERNAL_ERROR|system/i.test(reason)
            ? 'System apps cannot be uninstalled; use app_force_stop, or leave it.'
            : 'Read the reason; do not retry blindly.',
          data: { packageName: args.packageName, reason },
        });
      }
      return success(`Uninstalled ${args.packageName}${args.keepData ? ' (data kept)' : ''}.`);
    },
  });
}

export interface ResolvedActivity {
  /** Fully qualified class name. */
  name: string;
  actions: string[];
  categories: string[];
}

/**
 * The activities of PKG in the "Activity Resolver Table:" of `dumpsys package PKG`: each filter is
 * `HASH PKG/.Activity filter HASH` (the component, short form) followed by its `Action: "…"` and
 * `Category: "…"` lines. An activity without an intent filter is in no resolver table.
 */
export function parseResolverActivities(dump: string, packageName: string): ResolvedActivity[] {
  const start = dump.indexOf('Activity Resolver Table:');
  if (start < 0) return [];
  const rest = dump.slice(start + 'Activity Resolver Table:'.length);
  const end = rest.search(/^\S/m);
  const table = end >= 0 ? rest.slice(0, end) : rest;
  const byName = new Map<string, ResolvedActivity>();
  let current: ResolvedActivity | undefined;
  for (const line of table.split('\n')) {
    const component = /^\s+[0-9a-f]+ ([\w.]+)\/([\w.$]+)(?: filter [0-9a-f]+)?(?: \(\d+ filters\))?$/.exec(line);
    if (component) {
      const [, pkg = '', cls = ''] = component;
      if (pkg !== packageName) {
        current = undefined;
        continue;
      }
      const name = cls.startsWith('.') ? `${pkg}${cls}` : cls;
      current = byName.get(name) ?? { name, actions: [], categories: [] };
      byName.set(name, current);
      continue;
    }
    const action = /^\s+Action: "([^"]+)"/.exec(line)?.[1];
    const category = /^\s+Category: "([^"]+)"/.exec(line)?.[1];
    if (current && action && !current.actions.includes(action)) current.actions.push(action);
    if (current && category && !current.categories.includes(category)) current.categories.push(category);
  }
  return [...byName.values()];
}

export function appInfoTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'app_info',
    title: 'Show app details',
    description:
      'Details of an installed app: version, target SDK, install times, installer, pid, exported activities.',
    input: { packageName: PACKAGE_NAME },
    metadata: { category: 'apps', risk: 'LOW', tags: ['device', 'apps'] },
    annotations: READ,
    async run(args, device) {
      const r = await device.run(
        sh`dumpsys package ${args.packageName}; echo ${SEPARATOR}; pidof ${args.packageName}`,
        {
          maxBytes: 4 * 1024 * 1024,
        },
      );
      const [dump = '', pids = ''] = splitParts(r.output);
      if (/Unable to find package/.test(dump) || !dump.includes(`Package [${args.packageName}]`)) {
        throw new ToolCallError('NOT_FOUND', `Package ${args.packageName} is not installed on ${device.serial}.`, {
          hint: 'Call app_list to see the installed packages.',
          data: { packageName: args.packageName },
        });
      }
      const block = dump.slice(dump.indexOf(`Package [${args.packageName}]`));
      const field = (name: string) => new RegExp(`^\\s*${name}=(.*)$`, 'm').exec(block)?.[1]?.trim();
      const pid = pids.trim().split(/\s+/)[0];
      const activities = parseResolverActivities(dump, args.packageName);
      const launcher = activities.find(
        (a) =>
          a.actions.includes('android.intent.action.MAIN') && a.categories.includes('android.intent.category.LAUNCHER'),
      );
      const installer = field('installerPackageName');
      return jsonSuccess({
        serial: device.serial,
        packageName: args.packageName,
        versionName: field('versionName') ?? null,
        versionCode: field('versionCode')?.split(/\s/)[0] ?? null,
        targetSdk: Number(/targetSdk=(\d+)/.exec(block)?.[1] ?? Number.NaN) || null,
        system: /flags=\[[^\]]*\bSYSTEM\b/.test(block),
        firstInstallTime: field('firstInstallTime') ?? null,
        lastUpdateTime: field('lastUpdateTime') ?? null,
        installer: installer && installer !== 'null' ? installer : null,
        codePath: field('codePath') ?? null,
        running: pid ? { pid: Number(pid) } : false,
        launcherActivity: launcher?.name ?? null,
        activities: activities.map((a) => a.name),
        intentFilters: activities,
      });
    },
  });
}
