/**
 * Rule (issue 16, "a ref belongs to the dump that made it"): an element keeps its ref across dumps
 * while it is verifiably the same element, and every other element gets a ref the device never had,
 * so a ref from an older dump can never name something else on a newer one. A ref from an older
 * dump, or from a dump the screen may have changed since (a UI action, a media key, a setting, an
 * install, or a focused window that is not the dump's), is tapped only when a fresh dump shows its
 * element still there; otherwise NOT_FOUND.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type UiElement, sameElement } from '../../tools/devices/tools/ui-tree';
import type { VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab, textOf } from './device-lab';
import { pointOf, refOf } from './profile-lab';

const NOTES = 'com.example.notes';

let lab: DeviceLab;
let device: VirtualDevice;

beforeAll(async () => {
  lab = await startDeviceLab();
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

beforeEach(async () => {
  await lab.call('app_launch', { packageName: NOTES, activity: '.MainActivity' });
});

const refsIn = (dump: string) => [...dump.matchAll(/^\s*(e\d+) /gm)].map((m) => m[1]!);
const dumpsTaken = () => device.executedCommands.filter((argv) => argv[0] === 'uiautomator').length;
const activity = () => device.phone.foreground().activity;

describe('refs across dumps', () => {
  it('keeps the ref of an element that is still the same element', async () => {
    const first = textOf(await lab.call('ui_dump'));
    const second = textOf(await lab.call('ui_dump'));
    expect(refsIn(second)).toEqual(refsIn(first));
    expect(refOf(second, 'id=save_button')).toBe(refOf(first, 'id=save_button'));
  });

  it('gives the elements of a new screen refs no earlier dump of the device had', async () => {
    const editor = textOf(await lab.call('ui_dump'));
    await lab.call('ui_tap', pointOf(editor, 'id=all_notes_button'));
    const list = textOf(await lab.call('ui_dump'));
    expect(list).toContain('id=new_note_button');
    const gone = refsIn(editor).filter((ref) => !refsIn(list).includes(ref));
    expect(gone).toContain(refOf(editor, 'id=save_button'));
    for (const ref of refsIn(list)) {
      if (refsIn(editor).includes(ref)) continue;
      expect(Number(ref.slice(1))).toBeGreaterThan(Math.max(...refsIn(editor).map((r) => Number(r.slice(1)))));
    }
  });
});

describe('the same element', () => {
  const icon: UiElement = {
    ref: 'e1',
    depth: 0,
    className: 'ImageButton',
    text: '',
    description: 'Play',
    id: 'play_pause',
    packageName: 'p.q',
    bounds: { left: 0, top: 0, right: 96, bottom: 96 },
    center: { x: 48, y: 48 },
    states: ['clickable'],
  };

  it('is the same class, id and bounds with the same description, or the same text', () => {
    expect(sameElement(icon, { ...icon, ref: 'e9' })).toBe(true);
    expect(sameElement({ ...icon, text: 'Draft' }, { ...icon, text: 'Draft', description: '' })).toBe(true);
    // A field keeps being itself while its text changes, when it has a description to know it by.
    expect(sameElement({ ...icon, text: 'a' }, { ...icon, text: 'ab' })).toBe(true);
  });

  it('is not an element known only by its description once that changed, nor one that moved', () => {
    expect(sameElement(icon, { ...icon, description: 'Pause' })).toBe(false);
    expect(sameElement(icon, { ...icon, bounds: { ...icon.bounds, top: 1 } })).toBe(false);
    expect(sameElement(icon, { ...icon, className: 'ImageView' })).toBe(false);
  });
});

describe('ui_tap by a ref of an older dump', () => {
  it('refuses it once its element left the screen, even right after a newer dump, and taps nothing', async () => {
    const editor = textOf(await lab.call('ui_dump'));
    await lab.call('ui_tap', pointOf(editor, 'id=all_notes_button'));
    await lab.call('ui_dump');
    expect(activity()).toBe(`${NOTES}.NoteListActivity`);
    const stale = await lab.call('ui_tap', { ref: refOf(editor, 'id=save_button') });
    expect(!stale.ok && stale.error.code).toBe('NOT_FOUND');
    expect(!stale.ok && stale.error.message).toMatch(/no longer on the screen .* the screen changed since the ui_dump/);
    expect(!stale.ok && stale.error.hint).toContain('Take a new ui_dump');
    expect(activity()).toBe(`${NOTES}.NoteListActivity`);
  });

  it('taps it when a fresh dump shows its element back on the screen', async () => {
    const editor = textOf(await lab.call('ui_dump'));
    await lab.call('ui_tap', pointOf(editor, 'id=all_notes_button'));
    const list = textOf(await lab.call('ui_dump'));
    await lab.call('ui_tap', pointOf(list, 'id=new_note_button'));
    expect(activity()).toBe(`${NOTES}.MainActivity`);
    const before = dumpsTaken();
    const again = await lab.call('ui_tap', { ref: refOf(editor, 'id=all_notes_button') });
    expect(textOf(again)).toMatch(new RegExp(`^Tapped ${refOf(editor, 'id=all_notes_button')} Button "All notes"`));
    expect(dumpsTaken()).toBe(before + 1);
    expect(activity()).toBe(`${NOTES}.NoteListActivity`);
  });
});

describe('a screen that moved on without Toolgate', () => {
  const focusReads = () =>
    device.executedCommands.filter((argv) => argv[0] === 'dumpsys' && argv[1] === 'window' && argv[2] === 'windows')
      .length;

  it('is noticed by its focused window before a tap by ref, and the stale ref is refused', async () => {
    const editor = textOf(await lab.call('ui_dump'));
    // Another program on the adb server (or the app itself) opens the list: no tool of Toolgate's ran.
    await lab.service.manager.shell(device.serial, `am start -n ${NOTES}/.NoteListActivity`);
    const stale = await lab.call('ui_tap', { ref: refOf(editor, 'id=save_button') });
    expect(!stale.ok && stale.error.code).toBe('NOT_FOUND');
    expect(!stale.ok && stale.error.message).toMatch(/no longer on the screen/);
    expect(activity()).toBe(`${NOTES}.NoteListActivity`);
  });

  it('costs one read of the focused window, and no new dump, while the window is the same', async () => {
    const editor = textOf(await lab.call('ui_dump'));
    const [dumps, reads] = [dumpsTaken(), focusReads()];
    expect((await lab.call('ui_tap', { ref: refOf(editor, 'id=note_input') })).ok).toBe(true);
    expect(dumpsTaken()).toBe(dumps);
    expect(focusReads()).toBe(reads + 1);
  });
});

describe('tools that may change the screen without a tap', () => {
  it('a setting changed since the dump makes ui_tap check the ref against a fresh dump', async () => {
    const editor = textOf(await lab.call('ui_dump'));
    const trusted = dumpsTaken();
    expect((await lab.call('ui_tap', { ref: refOf(editor, 'id=note_input') })).ok).toBe(true);
    // Right after its dump and with nothing done since, the ref was taken as dumped.
    expect(dumpsTaken()).toBe(trusted);

    const fresh = textOf(await lab.call('ui_dump'));
    const put = await lab.call('get_set_settings', {
      action: 'put',
      namespace: 'system',
      key: 'font_scale',
      value: '1.15',
    });
    expect(put.ok).toBe(true);
    const before = dumpsTaken();
    expect((await lab.call('ui_tap', { ref: refOf(fresh, 'id=note_input') })).ok).toBe(true);
    expect(dumpsTaken()).toBe(before + 1);
  });
});
