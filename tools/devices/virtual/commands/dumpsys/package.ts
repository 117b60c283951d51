/**
 * `dumpsys package PKG`. Given a package name, PackageManagerService dumps its resolver tables
 * with the filters ("Activity Resolver Table:" … "HASH PKG/.Activity filter HASH" and the filter's
 * Action:/Category: lines); an activity without an intent filter appears in none of them. Then
 * "Packages:" with the package's settings: Android 12+ prints `appId=` and each user's
 * `firstInstallTime=` under its "User 0:" line; Android 8–9 `userId=` and the times in the package
 * block. A package that is not installed: "Unable to find package: PKG" (Android 12+).
 */
import type { VirtualPhone } from '../../phone';
import { intentFilters } from '../../phone/app-info';
import { type PackageRecord, shortComponent } from '../../phone/packages';
import { strftime } from '../basic';
import { hexId } from './ids';

function time(ms: number): string {
  return strftime('%F %T', ms);
}

function resolverTable(record: PackageRecord): string[] {
  const filters = intentFilters(record.info);
  if (filters.length === 0) return [];
  const byAction = new Map<string, typeof filters>();
  for (const f of filters) for (const action of f.actions) byAction.set(action, [...(byAction.get(action) ?? []), f]);
  const lines = ['Activity Resolver Table:', '  Non-Data Actions:'];
  for (const [action, list] of byAction) {
    lines.push(`      ${action}:`);
    for (const f of list) {
      const component = shortComponent(record.info.packageName, f.activity);
      lines.push(`        ${hexId(f.activity)} ${component} filter ${hexId(`${f.activity}|${f.actions.join()}`)}`);
      for (const a of f.actions) lines.push(`          Action: "${a}"`);
      for (const c of f.categories) lines.push(`          Category: "${c}"`);
    }
  }
  lines.push('');
  return lines;
}

function packageBlock(record: PackageRecord, legacy: boolean): string[] {
  const { info } = record;
  const flags = `[ ${info.system ? 'SYSTEM ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`;
  const head = [
    'Packages:',
    `  Package [${info.packageName}] (${hexId(info.packageName)}):`,
    legacy ? `    userId=${record.uid}` : `    appId=${record.uid}`,
    `    pkg=Package{${hexId(`p${info.packageName}`)} ${info.packageName}}`,
    `    codePath=${record.codePath}`,
    `    resourcePath=${record.codePath}`,
    `    legacyNativeLibraryDir=${record.codePath}/lib`,
    '    primaryCpuAbi=arm64-v8a',
    '    secondaryCpuAbi=null',
    `    versionCode=${info.versionCode} minSdk=24 targetSdk=${info.targetSdk ?? 34}`,
    `    versionName=${info.versionName}`,
    '    splits=[base]',
    '    apkSigningVersion=2',
    `    flags=${flags}`,
    `    dataDir=/data/user/0/${info.packageName}`,
    '    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]',
    `    timeStamp=${time(record.lastUpdateTime)}`,
  ];
  if (legacy) {
    return [
      ...head,
      `    firstInstallTime=${time(record.firstInstallTime)}`,
      `    lastUpdateTime=${time(record.lastUpdateTime)}`,
      ...(record.installer ? [`    installerPackageName=${record.installer}`] : []),
      `    signatures=PackageSignatures{${hexId(`s${info.packageName}`)} [${hexId(`k${info.packageName}`)}]}`,
      `    pkgFlags=${flags}`,
      '    User 0: ceDataInode=1504712 installed=true hidden=false suspended=false stopped=false notLaunched=false ' +
        'enabled=0 instant=false virtual=false',
      '',
    ];
  }
  return [
    ...head,
    `    lastUpdateTime=${time(record.lastUpdateTime)}`,
    `    installerPackageName=${record.installer ?? 'null'}`,
    `    signatures=PackageSignatures{${hexId(`s${info.packageName}`)} version:2, ` +
      `signatures:[${hexId(`k${info.packageName}`)}], past signatures:[]}`,
    '    installPermissionsFixed=true',
    `    pkgFlags=${flags}`,
    '    User 0: ceDataInode=1504712 deDataInode=0 installed=true hidden=false suspended=false distractionFlags=0 ' +
      'stopped=false notLaunched=false enabled=0 instant=false virtual=false',
    '      installReason=0',
    `      dataDir=/data/user/0/${info.packageName}`,
    `      firstInstallTime=${time(record.firstInstallTime)}`,
    '      uninstallReason=0',
    '',
  ];
}

export function packageDump(phone: VirtualPhone, args: string[]): string {
  const legacy = phone.profile.android.dumps === 'legacy';
  const name = args.find((a) => !a.startsWith('-') && a.includes('.'));
  if (!name)
    return phone
      .listPackages()
      .map((p) => `  Package [${p.info.packageName}] (${hexId(p.info.packageName)}):\n`)
      .join('');
  const record = phone.getPackage(name);
  if (!record) return legacy ? '\nDexopt state:\n\nCompiler stats:\n' : `Unable to find package: ${name}\n`;
  const keySets = ['Key Set Manager:', `  [${name}]`, '      Signing KeySets: 42', ''];
  return `${[...resolverTable(record), ...keySets, ...packageBlock(record, legacy)].join('\n')}\n`;
}
