/**
 * `npx tsx scripts/device-profile-table.ts [--out docs/device-profiles.md] [--profiles pixel,xiaomi]`:
 * runs every device tool on the virtual phone of each profile (scripts/lib/device-profile-table.ts)
 * and prints the table, tool by profile, of what each returns. With `--out`, the part of that file
 * between the two GENERATED markers is replaced and the prose around it kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PROFILE_NAMES, type ProfileName, isProfileName } from '../tools/devices/virtual';
import {
  GENERATED_END,
  GENERATED_START,
  buildProfileTable,
  renderAnswers,
  renderProfiles,
  renderTable,
} from './lib/device-profile-table';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function profilesAsked(): ProfileName[] {
  const list = option('--profiles');
  if (!list) return [...PROFILE_NAMES];
  const names = list.split(',');
  const unknown = names.filter((n) => !isProfileName(n));
  if (unknown.length > 0)
    throw new Error(`unknown profile(s) ${unknown.join(', ')}; known: ${PROFILE_NAMES.join(', ')}`);
  return names as ProfileName[];
}

async function main(): Promise<void> {
  const profiles = profilesAsked();
  const table = await buildProfileTable(profiles);
  const generated = [
    '## The profiles',
    '',
    renderProfiles(profiles),
    '',
    '## What each tool returns, by profile',
    '',
    renderTable(table),
    '',
    '### What the successes said (first line)',
    '',
    renderAnswers(table),
  ].join('\n');
  const out = option('--out');
  if (!out) {
    console.log(generated);
    return;
  }
  const doc = readFileSync(out, 'utf8');
  const start = doc.indexOf(GENERATED_START);
  const end = doc.indexOf(GENERATED_END);
  if (start < 0 || end < start) throw new Error(`${out} has no ${GENERATED_START} … ${GENERATED_END} section`);
  writeFileSync(out, `${doc.slice(0, start + GENERATED_START.length)}\n\n${generated}\n\n${doc.slice(end)}`);
  console.log(`wrote ${out}: ${table.rows.length} rows × ${table.columns.length} columns`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
