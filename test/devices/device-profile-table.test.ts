/**
 * Rule (issue 16's closing note): the table of what each device tool returns on each profile is
 * built from the code (scripts/lib/device-profile-table.ts): every tool the host registers in the
 * device toolsets has a row, each run through the real adb server and the host's pipeline on the
 * virtual phone, and its cells agree with what the profile matrix tests establish. The committed
 * docs/device-profiles.md lists exactly the registered tools and profiles, so a tool or profile
 * added without regenerating it fails here, naming the command to run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../tools/devices/virtual';
import {
  type Cell,
  GENERATED_END,
  GENERATED_START,
  type ProfileTable,
  REGENERATE,
  type Row,
  buildProfileTable,
  firstSentence,
  renderTable,
} from '../../scripts/lib/device-profile-table';
import { type TestHost, startTestHost } from '../host/harness';

const DOC = join(__dirname, '..', '..', 'docs', 'device-profiles.md');

let table: ProfileTable;
let host: TestHost;
/** The tools the host registers in the device family's toolsets (device, device-system, device-shell). */
let registered: string[];

beforeAll(async () => {
  table = await buildProfileTable(['pixel', 'xiaomi']);
  host = await startTestHost();
  const { registry } = host.host;
  registered = registry
    .toolsets()
    .filter((t) => t.name === 'device' || t.name.startsWith('device-'))
    .flatMap((t) => registry.toolsOf(t.name).map((tool) => tool.id))
    .sort();
}, 120_000);

afterAll(async () => {
  await host?.dispose();
});

/** The row of a tool's first sample (or its `index`th). */
function row(toolId: string, index = 0): Row {
  const found = table.rows.filter((r) => r.toolId === toolId)[index];
  if (!found) throw new Error(`no row ${index} for ${toolId}`);
  return found;
}

function failure(cell: Cell | undefined): { code: string; message: string; hint?: string } {
  if (!cell || cell.ok) throw new Error(`expected a failure, got ${JSON.stringify(cell)}`);
  return cell as { code: string; message: string; hint?: string };
}

describe('the device profile table', () => {
  it('has a row for every tool the host registers in the device toolsets, and for no other', () => {
    expect(registered.length).toBeGreaterThanOrEqual(20);
    expect([...new Set(table.rows.map((r) => r.toolId))].sort()).toEqual(registered);
  });

  it('has a column per profile, and one more for a profile whose OEM security settings a person turns on', () => {
    expect(table.columns.map((c) => c.label)).toEqual(['pixel', 'xiaomi', 'xiaomi, OEM settings on']);
  });

  it("fills every cell: a tool's answer, or 'no sample arguments'", () => {
    for (const r of table.rows)
      for (const c of table.columns) expect(r.cells[c.label], `${r.toolId} ${c.label}`).toBeDefined();
  });

  it("pixel's tap is ok; xiaomi's is PERMISSION_DENIED naming the security setting until it is on", () => {
    for (const index of [0, 1]) {
      const tap = row('ui_tap', index);
      expect(tap.cells.pixel).toMatchObject({ ok: true, approved: false });
      const refused = failure(tap.cells.xiaomi);
      expect(refused.code).toBe('PERMISSION_DENIED');
      expect(refused.message).toContain('INJECT_EVENTS');
      expect(refused.hint).toContain('"USB debugging (Security settings)"');
      expect(tap.cells['xiaomi, OEM settings on']).toMatchObject({ ok: true });
    }
  });

  it('xiaomi refuses an install naming "Install via USB"; pixel installs it after an approve-once', () => {
    const install = row('app_install');
    expect(install.cells.pixel).toMatchObject({
      ok: true,
      approved: true,
      said: expect.stringMatching(/installed com\.acme\.todo\.$/),
    });
    const refused = failure(install.cells.xiaomi);
    expect(refused.code).toBe('PERMISSION_DENIED');
    expect(refused.message).toContain('INSTALL_FAILED_USER_RESTRICTED');
    expect(refused.hint).toContain('"Install via USB"');
  });

  it('an APK targeting SDK 22 is UNSUPPORTED on Android 15, offering allowLowTargetSdk', () => {
    const old = failure(row('app_install', 1).cells.pixel);
    expect(old.code).toBe('UNSUPPORTED');
    expect(old.message).toContain('INSTALL_FAILED_DEPRECATED_SDK_VERSION');
    expect(old.hint).toContain('allowLowTargetSdk=true');
  });

  it('the clipboard is UNSUPPORTED on every profile, quoting Binder\'s "No shell command implementation."', () => {
    for (const c of table.columns) {
      const e = failure(row('clipboard').cells[c.label]);
      expect(e.code).toBe('UNSUPPORTED');
      expect(e.message).toContain('"No shell command implementation."');
    }
  });

  it('text beyond ASCII is typed through ADBKeyboard on pixel, switching keyboards and back', () => {
    expect(row('input_text', 1).cells.pixel).toMatchObject({
      ok: true,
      said: expect.stringContaining('via ADBKeyboard (switched the keyboard from'),
    });
  });

  it('writes run after the scripted person approves once, reads ask no one', () => {
    expect(row('get_set_settings').cells.pixel).toMatchObject({ ok: true, approved: true });
    expect(row('shell_execute', 1).cells.xiaomi).toMatchObject({ ok: true, approved: true });
    expect(row('shell_execute', 0).cells.xiaomi).toMatchObject({ ok: true, approved: false, said: '14' });
  });

  it('renders short cells, the texts in footnotes shared by identical failures, and no serial', () => {
    const md = renderTable(table);
    const tapLine = md.split('\n').find((l) => l.startsWith('| `ui_tap` |'));
    expect(tapLine).toMatch(/\| ok \| PERMISSION_DENIED(\S+) \| ok \|$/);
    const mark = /PERMISSION_DENIED(\S+) \|/.exec(tapLine ?? '')![1]!;
    const notes = md.split('\n').filter((l) => l.startsWith(`- ${mark} `));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('PERMISSION_DENIED: SERIAL refused to inject input');
    expect(notes[0]).toContain('Hint: On Xiaomi, Redmi and POCO phones');
    expect(md).not.toMatch(/127\.0\.0\.1:\d+/);
  });

  it("says 'no sample arguments' for a tool the script has no sample for", () => {
    const md = renderTable({
      columns: [{ label: 'pixel', profile: 'pixel', oemSettingsOn: false }],
      rows: [{ toolId: 'new_tool', toolset: 'device', shown: '', cells: { pixel: { ok: false, code: 'NO_SAMPLE' } } }],
    });
    expect(md).toContain('| `new_tool` | device |  | no sample arguments¹ |');
    expect(md).toContain('- ¹ no sample arguments: add one to SAMPLES in scripts/lib/device-profile-table.ts');
  });

  it('takes the first sentence of a message, not a version number or a quoted one', () => {
    expect(firstSentence('Installed 1.4.2 on it. Then more.')).toBe('Installed 1.4.2 on it.');
    expect(firstSentence('It said "No shell command implementation." as text. More.')).toBe(
      'It said "No shell command implementation." as text.',
    );
  });
});

describe('docs/device-profiles.md', () => {
  const doc = readFileSync(DOC, 'utf8');
  const generated = doc.slice(doc.indexOf(GENERATED_START), doc.indexOf(GENERATED_END));
  const toolTable = generated.slice(generated.indexOf('## What each tool returns'));
  const header = toolTable.split('\n').find((l) => l.startsWith('| tool |')) ?? '';

  it(`lists exactly the tools the host registers in the device toolsets (else: ${REGENERATE})`, () => {
    const rows = [...toolTable.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect([...new Set(rows)].sort(), `docs/device-profiles.md is out of date; run ${REGENERATE}`).toEqual(registered);
  });

  it(`has a column for every profile (else: ${REGENERATE})`, () => {
    const columns = header.split('|').map((c) => c.trim());
    expect(
      PROFILE_NAMES.filter((p) => !columns.includes(p)),
      `docs/device-profiles.md is out of date; run ${REGENERATE}`,
    ).toEqual([]);
  });
});
