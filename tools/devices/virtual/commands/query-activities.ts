/**
 * `cmd package query-activities [--brief] [--components] [--user U] [-a ACTION] [-c CATEGORY]…
 * [-n COMPONENT] [PACKAGE]` (also `pm query-activities`): the activities whose intent filters match
 * the intent, as PackageManagerShellCommand.runQueryIntentActivities prints them — "N activities
 * found:", then per match "  Activity #i:" and the ResolveInfo dump; `--brief` the priority line and
 * the component, `--components` the components alone; "No activities found" when nothing matches.
 * Tools that list an agent's launchable apps ask this (`-a android.intent.action.MAIN -c
 * android.intent.category.LAUNCHER`) and read its `packageName=` lines.
 */
import type { PackageRecord } from '../phone/packages';
import { type IntentFilterInfo, intentFilters } from '../phone/app-info';
import type { CommandContext } from './types';

interface IntentQuery {
  action?: string;
  categories: string[];
  component?: string;
  packageName?: string;
  brief: boolean;
  components: boolean;
}

/** The intent options Intent.parseCommandArgs and the command's own flags take; others are passed over. */
function parseQuery(args: readonly string[]): IntentQuery | string {
  const query: IntentQuery = { categories: [], brief: false, components: false };
  const withValue = new Set(['-d', '-t', '-f', '--user', '--query-flags', '-e', '--es', '--ei', '--ez']);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = () => args[++i];
    if (arg === '-a') query.action = next();
    else if (arg === '-c') {
      const c = next();
      if (c) query.categories.push(c);
    } else if (arg === '-n') query.component = next();
    else if (arg === '--brief') query.brief = true;
    else if (arg === '--components') query.components = true;
    else if (withValue.has(arg)) i += arg.startsWith('--e') || arg === '-e' ? 2 : 1;
    else if (arg.startsWith('-')) return `Unknown option: ${arg}`;
    else query.packageName = arg;
  }
  return query;
}

/** `com.x/.Main` for a class inside its package (ComponentName.flattenToShortString), else `com.x/org.y.Main`. */
function shortComponent(packageName: string, activity: string): string {
  return activity.startsWith(`${packageName}.`)
    ? `${packageName}/${activity.slice(packageName.length)}`
    : `${packageName}/${activity}`;
}

function matches(q: IntentQuery, record: PackageRecord, filter: IntentFilterInfo): boolean {
  const { packageName } = record.info;
  if (q.packageName && q.packageName !== packageName) return false;
  if (q.component) {
    const [pkg, cls = ''] = q.component.split('/');
    const full = cls.startsWith('.') ? `${pkg}${cls}` : cls;
    if (pkg !== packageName || full !== filter.activity) return false;
  }
  if (q.action && !filter.actions.includes(q.action)) return false;
  return q.categories.every((c) => filter.categories.includes(c));
}

/** The ResolveInfo dump, abridged to the lines whose format the sources fix (FORMATS.md). */
function resolveInfoDump(record: PackageRecord, activity: string, prefix: string): string {
  const { packageName } = record.info;
  return [
    // MATCH_CATEGORY_EMPTY | MATCH_ADJUSTMENT_NORMAL: what a filter without data matching an intent without data
    // scores.
    `${prefix}priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false`,
    `${prefix}ActivityInfo:`,
    `${prefix}  name=${activity}`,
    `${prefix}  packageName=${packageName}`,
    `${prefix}  enabled=true exported=true directBootAware=false`,
    `${prefix}  ApplicationInfo:`,
    `${prefix}    packageName=${packageName}`,
  ]
    .map((l) => `${l}\n`)
    .join('');
}

export function queryActivities(ctx: CommandContext, args: readonly string[]): number {
  const query = parseQuery(args);
  if (typeof query === 'string') {
    ctx.err(`\nException occurred while executing 'query-activities':\njava.lang.IllegalArgumentException: ${query}\n`);
    return 255;
  }
  const found: { record: PackageRecord; activity: string }[] = [];
  for (const record of ctx.phone.listPackages()) {
    const seen = new Set<string>();
    for (const filter of intentFilters(record.info)) {
      if (seen.has(filter.activity) || !matches(query, record, filter)) continue;
      seen.add(filter.activity);
      found.push({ record, activity: filter.activity });
    }
  }
  if (found.length === 0) {
    ctx.out('No activities found\n');
    return 0;
  }
  const component = (f: (typeof found)[number]) => shortComponent(f.record.info.packageName, f.activity);
  if (query.components) {
    for (const f of found) ctx.out(`${component(f)}\n`);
    return 0;
  }
  ctx.out(`${found.length} activities found:\n`);
  found.forEach((f, i) => {
    ctx.out(`  Activity #${i}:\n`);
    if (query.brief)
      ctx.out(`    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    ${component(f)}\n`);
    else ctx.out(resolveInfoDump(f.record, f.activity, '    '));
  });
  return 0;
}
