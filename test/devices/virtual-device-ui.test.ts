/**
 * Rule: the virtual phone's UI is consistent across every channel — taps hit nodes by their
 * uiautomator bounds, focus shows the keyboard (dumpsys input_method), typing lands in the focused
 * field, buttons navigate (dumpsys activity/window), and screencap pixels follow the UI state.
 */
import Adb from '@devicefarmer/adbkit';
import { PNG } from 'pngjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { useVirtualDevice } from './virtual-device-harness';

const vd = useVirtualDevice();
const { shell } = vd;

interface DumpedNode {
  text: string;
  resourceId: string;
  contentDesc: string;
  focused: boolean;
  center: [number, number];
}

/** `uiautomator dump` to the default file, then read it back, as a host tool would. */
async function dump(): Promise<DumpedNode[]> {
  expect(await shell('uiautomator dump')).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
  const xml = await shell('cat /sdcard/window_dump.xml');
  return [...xml.matchAll(/<node ([^>]*?)\/?>/g)].map(([, attrs = '']) => {
    const attr = (name: string): string => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? '';
    const [x1, y1, x2, y2] = (attr('bounds').match(/\d+/g) ?? []).map(Number);
    return {
      text: attr('text'),
      resourceId: attr('resource-id'),
      contentDesc: attr('content-desc'),
      focused: attr('focused') === 'true',
      center: [Math.round(((x1 ?? 0) + (x2 ?? 0)) / 2), Math.round(((y1 ?? 0) + (y2 ?? 0)) / 2)],
    };
  });
}

async function node(match: (n: DumpedNode) => boolean): Promise<DumpedNode> {
  const found = (await dump()).find(match);
  if (!found) throw new Error('node not on screen');
  return found;
}

const byId = (id: string) => (n: DumpedNode) => n.resourceId === id;

async function tap(n: DumpedNode): Promise<void> {
  await shell(`input tap ${n.center[0]} ${n.center[1]}`);
}

/** The resumed activity as Android 12+ names it (the default profile is Android 15). */
async function foreground(): Promise<string> {
  return (await shell('dumpsys activity activities | grep topResumedActivity=')).trim();
}

async function screenshot(): Promise<PNG> {
  return PNG.sync.read(await Adb.util.readAll(await vd.phone.screencap()));
}

beforeEach(async () => {
  await shell('am force-stop com.example.notes; am force-stop com.example.shop; input keyevent KEYCODE_HOME');
});

describe('notes flow: tap → focus → type → save → list', () => {
  it('focuses the field on tap, types into it, and saves to a second screen', async () => {
    await shell('monkey -p com.example.notes -c android.intent.category.LAUNCHER 1');
    expect(await foreground()).toContain('com.example.notes/.MainActivity');
    expect(await shell('dumpsys input_method | grep mInputShown')).toContain('mInputShown=false');

    const field = await node(byId('com.example.notes:id/note_input'));
    expect(field.focused).toBe(false);
    await tap(field);
    expect((await node(byId('com.example.notes:id/note_input'))).focused).toBe(true);
    expect(await shell('dumpsys input_method | grep mInputShown')).toContain('mInputShown=true');

    await shell("input text 'Buy%soat%smilk'");
    expect((await node(byId('com.example.notes:id/note_input'))).text).toBe('Buy oat milk');

    await tap(await node(byId('com.example.notes:id/save_button')));
    expect(await foreground()).toContain('com.example.notes/.NoteListActivity');
    expect(await shell('dumpsys window | grep mCurrentFocus')).toContain(
      'com.example.notes/com.example.notes.NoteListActivity',
    );
    const items = (await dump()).filter(byId('com.example.notes:id/note_item')).map((n) => n.text);
    expect(items).toEqual(['Buy oat milk']);
    expect(await shell('dumpsys input_method | grep mInputShown')).toContain('mInputShown=false');
  });

  it('changes the screenshot pixels when the keyboard appears and when the screen changes', async () => {
    await shell('am start -n com.example.notes/.MainActivity');
    // Below the status bar, whose clock and latency probe change on their own.
    const { width, scale } = vd.device.phone.layout;
    const belowStatusBar = (png: { data: Buffer }) => png.data.subarray(Math.round(48 * scale) * width * 4);
    const before = await screenshot();
    expect(belowStatusBar(await screenshot()).equals(belowStatusBar(before))).toBe(true);
    await tap(await node(byId('com.example.notes:id/note_input')));
    const withKeyboard = await screenshot();
    expect(belowStatusBar(withKeyboard).equals(belowStatusBar(before))).toBe(false);
    await shell('input text hi');
    await tap(await node(byId('com.example.notes:id/save_button')));
    const after = await screenshot();
    expect(belowStatusBar(after).equals(belowStatusBar(withKeyboard))).toBe(false);
    expect([after.width, after.height]).toEqual([vd.device.phone.screen.width, vd.device.phone.screen.height]);
  });

  it('goes BACK from the list to the editor, and from the editor to the launcher', async () => {
    await shell('am start -n com.example.notes/.MainActivity');
    await tap(await node(byId('com.example.notes:id/all_notes_button')));
    expect(await foreground()).toContain('.NoteListActivity');
    await shell('input keyevent KEYCODE_BACK');
    expect(await foreground()).toContain('com.example.notes/.MainActivity');
    await shell('input keyevent 4');
    expect(await foreground()).toContain('com.android.launcher3/.Launcher');
  });

  it('hides the keyboard on the first BACK and leaves the screen on the second', async () => {
    await shell('am start -n com.example.notes/.MainActivity');
    await tap(await node(byId('com.example.notes:id/note_input')));
    await shell('input keyevent KEYCODE_BACK');
    expect(await shell('dumpsys input_method | grep mInputShown')).toContain('mInputShown=false');
    expect(await foreground()).toContain('com.example.notes/.MainActivity');
  });
});

describe('launcher and navigation', () => {
  it('launches an app when its launcher icon is tapped', async () => {
    const icon = await node((n) => n.contentDesc === 'Shop');
    await tap(icon);
    expect(await foreground()).toContain('com.example.shop/.ShopActivity');
    await shell('input keyevent KEYCODE_HOME');
    expect(await shell('dumpsys window | grep mCurrentFocus')).toContain('com.android.launcher3');
  });

  it('scrolls a list with a swipe', async () => {
    await shell('am start -n com.example.shop/.ShopActivity');
    const names = async (): Promise<string[]> =>
      (await dump()).filter(byId('com.example.shop:id/product_name')).map((n) => n.text);
    const top = await names();
    expect(top[0]).toBe('Coffee beans');
    expect(top).not.toContain('Tea towel');
    const { width, height } = vd.device.phone.screen;
    await shell(`input swipe ${width / 2} ${Math.round(height * 0.85)} ${width / 2} ${Math.round(height * 0.3)} 300`);
    const scrolled = await names();
    expect(scrolled).toContain('Tea towel');
    expect(scrolled).not.toContain('Coffee beans');
  });

  it('prints the dump itself for `uiautomator dump /dev/tty`', async () => {
    const out = await shell('uiautomator dump /dev/tty');
    expect(out).toMatch(
      /^<\?xml version='1\.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation="0"><node index="0" /,
    );
    expect(out.endsWith('</hierarchy>UI hierchary dumped to: /dev/tty\n')).toBe(true);
  });
});

describe('typing text that `input text` cannot carry', () => {
  beforeEach(async () => {
    await shell('am start -n com.example.notes/.MainActivity');
    await tap(await node(byId('com.example.notes:id/note_input')));
    await shell('ime set com.android.adbkeyboard/.AdbIME; am broadcast -a ADB_CLEAR_TEXT');
  });

  const fieldText = async (): Promise<string> => (await node(byId('com.example.notes:id/note_input'))).text;

  it('fails `input text` with non-ASCII as a phone does, typing nothing', async () => {
    const out = await shell("input text 'café'; echo status=$?");
    expect(out).toContain('java.lang.NullPointerException');
    expect(out).toContain('status=255');
    expect(await fieldText()).toBe('Write a note');
  });

  it('types any Unicode through the ADBKeyboard broadcast', async () => {
    const out = await shell("am broadcast -a ADB_INPUT_TEXT --es msg 'café ☕ 日本'");
    expect(out).toContain('Broadcast completed: result=0');
    expect(await fieldText()).toBe('café ☕ 日本');
  });

  it('types base64 text through ADB_INPUT_B64', async () => {
    await shell(`am broadcast -a ADB_INPUT_B64 --es msg ${Buffer.from('Grüße').toString('base64')}`);
    expect(await fieldText()).toBe('Grüße');
  });

  it('types nothing through ADBKeyboard while another keyboard is selected, yet says "completed"', async () => {
    await shell('ime set com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME');
    const out = await shell("am broadcast -a ADB_INPUT_TEXT --es msg 'café'");
    expect(out).toBe(
      'Broadcasting: Intent { act=ADB_INPUT_TEXT flg=0x400000 (has extras) }\nBroadcast completed: result=0\n',
    );
    expect(await fieldText()).toBe('Write a note');
  });

  it('answers `cmd clipboard` as Binder does for a service with no shell command; pastes a copy', async () => {
    expect(await shell("cmd clipboard set 'naïve résumé'; echo status=$?")).toBe(
      'No shell command implementation.\nstatus=0\n',
    );
    vd.device.phone.services.clipboard = 'naïve résumé';
    await shell('input keyevent KEYCODE_PASTE');
    expect(await fieldText()).toBe('naïve résumé');
  });
});
