/**
 * `pm` (and `cmd package`): list packages/features, path, install, uninstall, clear, grant/revoke,
 * query-activities (query-activities.ts).
 * Output lines match what adbkit parses: `package:NAME`, `Success`, `Failure [CODE]`.
 */
import { clearData, installApk, uninstall } from '../phone/package-ops';
import { readExactly } from '../sh/io';
import { queryActivities } from './query-activities';
import { ShellArgs, ShellArgumentError, printArgumentError } from './shell-args';
import { parseFlags, type CommandContext, type CommandHandler } from './types';

const FEATURES = [
  'android.hardware.audio.output',
  'android.hardware.bluetooth',
  'android.hardware.camera',
  'android.hardware.faketouch',
  'android.hardware.location',
  'android.hardware.location.gps',
  'android.hardware.screen.portrait',
  'android.hardware.touchscreen',
  'android.hardware.touchscreen.multitouch',
  'android.hardware.wifi',
  'android.software.input_methods',
  'android.software.webview',
];

/** runListPackages' flag options (Android 15), and the two that take a value. */
const LIST_FLAGS = new Set([
  '-d',
  '-e',
  '-a',
  '-f',
  '-i',
  '-l',
  '-s',
  '-U',
  '-u',
  '-3',
  '--show-versioncode',
  '--apex-only',
  '--factory-only',
]);
const LIST_VALUE_OPTIONS = new Set(['--user', '--uid']);

/**
 * `pm list packages [OPTIONS] [FILTER]`: AOSP `PackageManagerShellCommand.runListPackages` — options
 * read with getNextOption (so `-3f` is refused: "No argument expected after"), an unknown one
 * "Error: Unknown option: -X" on standard output with status -1 (255); then one FILTER. Each line is
 * "package:", with -f the APK path and "=", the name, " versionCode:N", "  installer=NAME", " uid:N".
 */
function listPackages(ctx: CommandContext, argv: string[]): number {
  const args = new ShellArgs(argv);
  const flags = new Set<string>();
  let filter: string;
  try {
    args.getNextArg(); // "packages"
    for (let opt = args.getNextOption(); opt !== null; opt = args.getNextOption()) {
      if (LIST_VALUE_OPTIONS.has(opt)) args.getNextArgRequired();
      else if (LIST_FLAGS.has(opt)) flags.add(opt);
      else {
        ctx.out(`Error: Unknown option: ${opt}\n`);
        return 255;
      }
    }
    filter = args.getNextArg() ?? '';
  } catch (error) {
    if (!(error instanceof ShellArgumentError)) throw error;
    return printArgumentError(ctx, 'list', error, [
      'com.android.server.pm.PackageManagerShellCommand.runListPackages(PackageManagerShellCommand.java:884)',
      'com.android.server.pm.PackageManagerShellCommand.runList(PackageManagerShellCommand.java:790)',
      'com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:240)',
    ]);
  }
  for (const record of ctx.phone.packages.list({ uninstalled: flags.has('-u') })) {
    const { packageName, system } = record.info;
    if (flags.has('-3') && system) continue;
    if (flags.has('-s') && !system) continue;
    if (flags.has('-d')) continue; // nothing is disabled on this phone
    if (!packageName.includes(filter)) continue;
    let line = 'package:';
    if (flags.has('-f')) line += `${record.codePath}/base.apk=`;
    line += packageName;
    if (flags.has('--show-versioncode')) line += ` versionCode:${record.info.versionCode}`;
    if (flags.has('-i')) line += `  installer=${record.installer ?? 'null'}`;
    if (flags.has('-U')) line += ` uid:${record.uid}`;
    ctx.out(`${line}\n`);
  }
  return 0;
}

/** `pm install [-r] [-S SIZE] [PATH]`: from a pushed file, or SIZE bytes of stdin (adb install's streaming form). */
async function install(ctx: CommandContext, args: string[]): Promise<number> {
  const { flags, operands } = parseFlags(args, ['-S', '-i', '--user', '--install-reason', '-p']);
  const bypass = flags.has('--bypass-low-target-sdk-block');
  // The option arrived with Android 14's block; older pm rejects it as it rejects any unknown option.
  if (bypass && ctx.phone.profile.sdk < 34) {
    ctx.err(
      "\nException occurred while executing 'install':\njava.lang.IllegalArgumentException: Unknown option " +
        '--bypass-low-target-sdk-block\n\tat ' +
        'com.android.server.pm.PackageManagerShellCommand.makeInstallParams(PackageManagerShellCommand.java:3112)\n',
    );
    return 255;
  }
  let path = operands[0];
  if (flags.has('-S')) {
    const size = Number(flags.get('-S'));
    const data = await readExactly(ctx.stdin, size);
    if (data.length < size) {
      ctx.out('Failure [INSTALL_FAILED_INVALID_APK: stream ended early]\n');
      return 1;
    }
    path = `/data/local/tmp/.streamed-${ctx.phone.now()}.apk`;
    ctx.phone.fs.write(path, data);
    const result = installApk(ctx.phone, path, true, { bypassLowTargetSdk: bypass });
    ctx.phone.fs.remove(path, false);
    ctx.out(`${result}\n`);
    return result === 'Success' ? 0 : 1;
  }
  if (!path) {
    ctx.err('Error: must either specify a package size or an APK file\n');
    return 1;
  }
  if (!ctx.phone.fs.stat(path)) {
    ctx.err(
      'Exception occurred while executing ' +
        `'install':\njava.lang.IllegalArgumentException: Error: Can't open file: ${path}\n`,
    );
    return 255;
  }
  const result = installApk(ctx.phone, path, flags.has('-r'), { bypassLowTargetSdk: bypass });
  ctx.out(`${result}\n`);
  return result === 'Success' ? 0 : 1;
}

export const pm: CommandHandler = async (ctx) => {
  const [sub, ...rest] = ctx.argv.slice(1);
  const second = rest[0];
  switch (sub) {
    case 'list':
      if (second === 'packages') return listPackages(ctx, [sub, ...rest]);
      if (second === 'features') {
        for (const f of FEATURES) ctx.out(`feature:${f}\n`);
        return 0;
      }
      ctx.err(`Error: unknown list type '${second ?? ''}'\n`);
      return 1;
    case 'path': {
      const record = second ? ctx.phone.getPackage(rest.filter((a) => !a.startsWith('-')).pop() ?? '') : undefined;
      if (!record) return 1;
      ctx.out(`package:${record.codePath}/base.apk\n`);
      return 0;
    }
    case 'install':
      return install(ctx, rest);
    case 'query-activities':
      return queryActivities(ctx, rest);
    case 'uninstall': {
      // runUninstall: -k, --user N, --versionCode N, then the package (-k keeps nothing here).
      const { flags, operands } = parseFlags(rest, ['--user', '--versionCode']);
      // UserHandle.parseUserArg: "all" is USER_ALL (as without --user), "current"/"cur" the current user 0.
      const arg = flags.get('--user');
      const user =
        arg === undefined || arg === 'all' ? undefined : arg === 'current' || arg === 'cur' ? 0 : Number(arg);
      const result = uninstall(ctx.phone, operands[0] ?? '', user);
      ctx.out(`${result}\n`);
      return result === 'Success' ? 0 : 1;
    }
    case 'clear': {
      const name = rest.filter((a) => !a.startsWith('-') && !/^\d+$/.test(a)).pop() ?? '';
      const ok = clearData(ctx.phone, name);
      ctx.out(ok ? 'Success\n' : 'Failed\n');
      return ok ? 0 : 1;
    }
    case 'grant':
    case 'revoke': {
      const name = rest.filter((a) => !a.startsWith('-'))[0] ?? '';
      if (!ctx.phone.getPackage(name)) {
        ctx.err(
          'Exception occurred while executing ' +
            `'${sub}':\njava.lang.IllegalArgumentException: Unknown package: ${name}\n`,
        );
        return 255;
      }
      return 0;
    }
    default:
      ctx.err(`pm: unknown command '${sub ?? ''}'\n`);
      return 1;
  }
};
