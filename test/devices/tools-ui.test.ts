/**
 * Rule (docs/architecture.md#tool-families, UI family): ui_dump gives a compact tree with element
 * refs that ui_tap and ui_swipe accept; taps and swipes land where the refs say; input_text types
 * ASCII with `input text` and anything else through ADBKeyboard; screenshot returns the screen as a
 * PNG, optionally scaled. Refs that do not exist, points off the screen and contradictory arguments
 * are model-readable errors.
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUiDump, renderSnapshot } from '../../tools/devices/tools/ui-tree';
import type { VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab, textOf } from './device-lab';

let lab: DeviceLab;
let device: VirtualDevice;

beforeAll(async () => {
  lab = await startDeviceLab();
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

/** The ref ui_dump gave the element whose line contains `needle`. */
function refOf(dump: string, needle: string): string {
  const line = dump.split('\n').find((l) => l.includes(needle));
  if (!line) throw new Error(`no element with ${needle} in:\n${dump}`);
  return /\b(e\d+)\b/.exec(line)![1]!;
}

describe('ui_dump', () => {
  it('renders one compact line per meaningful element and skips empty layouts', () => {
    const xml =
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
      `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="p.q" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,200]">` +
      `<node index="0" text="" resource-id="" class="android.widget.LinearLayout" package="p.q" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,100]">` +
      `<node index="0" text="Tom &amp; Jerry" resource-id="p.q:id/title" class="android.widget.TextView" package="p.q" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,50]" />` +
      `<node index="1" text="Wrap" resource-id="p.q:id/wrap" class="android.widget.CheckBox" package="p.q" content-desc="" checkable="true" checked="true" clickable="true" enabled="false" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,50][100,100]" />` +
      `</node></node></hierarchy>UI hierchary dumped to: /dev/tty\n`;
    const snapshot = parseUiDump('S1', xml, 0);
    expect(snapshot.screen).toEqual({ width: 100, height: 200 });
    expect(renderSnapshot(snapshot)).toBe(
      'p.q on S1 (100x200): 2 element(s). Tap one with ui_tap {"ref": "eN"}.\n' +
        'e1 TextView "Tom & Jerry" id=title @50,25\n' +
        'e2 CheckBox "Wrap" id=wrap @50,75 clickable checked disabled',
    );
  });

  it('dumps the live screen with refs, and the raw XML on request', async () => {
    await lab.call('app_launch', { packageName: 'com.example.notes' });
    const dump = textOf(await lab.call('ui_dump'));
    expect(dump.split('\n')[0]).toBe(
      `com.example.notes on ${device.serial} (720x1280): 5 element(s). Tap one with ui_tap {"ref": "eN"}.`,
    );
    expect(dump).toMatch(/e\d+ EditText "Write a note" id=note_input @360,255 clickable/);
    expect(dump).toMatch(/e\d+ Button "Save" id=save_button @186,388 clickable/);
    expect(dump).not.toContain('FrameLayout');
    const raw = textOf(await lab.call('ui_dump', { raw: true }));
    expect(raw).toContain('<hierarchy rotation="0">');
    expect(raw).toContain('resource-id="com.example.notes:id/note_input"');
  });
});

describe('ui_tap', () => {
  it('refuses a ref when no dump was taken of that device, pointing to ui_dump', async () => {
    const fresh = await lab.addDevice();
    const result = await lab.call('ui_tap', { ref: 'e1', serial: fresh.serial });
    await lab.removeDevice(fresh);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('NOT_FOUND');
      expect(result.error.hint).toMatch(/ui_dump/);
    }
  });

  it('refuses a ref that is not in the latest dump, a malformed ref, and a point off the screen', async () => {
    const missing = await lab.call('ui_tap', { ref: 'e999' });
    expect(!missing.ok && missing.error.message).toMatch(/No element e999 in the latest ui_dump .* \(it has e1-e5\)/);
    const malformed = await lab.call('ui_tap', { ref: '7' });
    expect(!malformed.ok && malformed.error.code).toBe('INVALID_ARGUMENT');
    const off = await lab.call('ui_tap', { x: 5000, y: 10 });
    expect(!off.ok && off.error.message).toMatch(/outside the 720x1280 screen/);
  });

  it('wants either a ref or both coordinates', async () => {
    const both = await lab.call('ui_tap', { ref: 'e1', x: 1, y: 1 });
    expect(!both.ok && both.error.code).toBe('INVALID_ARGUMENT');
    const half = await lab.call('ui_tap', { x: 1 });
    expect(!half.ok && half.error.code).toBe('INVALID_ARGUMENT');
  });

  it('taps an element by ref (the field gets focus and the keyboard) and by coordinates', async () => {
    const dump = textOf(await lab.call('ui_dump'));
    const input = refOf(dump, 'id=note_input');
    expect(textOf(await lab.call('ui_tap', { ref: input }))).toMatch(
      new RegExp(`^Tapped ${input} EditText "Write a note"`),
    );
    expect(device.phone.focus?.fieldId).toBe('com.example.notes:id/note_input');
    expect(device.phone.keyboardShown).toBe(true);
    expect(lab.service.telemetry.snapshot(device.serial).keyboardShown?.value).toBe(true);
    expect(textOf(await lab.call('ui_tap', { x: 534, y: 388 }))).toBe(`Tapped (534,388) on ${device.serial}.`);
    expect(device.phone.foreground().activity).toBe('com.example.notes.NoteListActivity');
  });
});

describe('input_text', () => {
  it('types ASCII with spaces and shell characters exactly, and presses Enter on request', async () => {
    await lab.call('app_launch', { packageName: 'com.example.notes', activity: '.MainActivity' });
    await lab.call('ui_tap', { ref: refOf(textOf(await lab.call('ui_dump')), 'id=note_input') });
    const text = `a b;c&&d|e $(f) 'g' "h" \`i\` 100% done`;
    expect(textOf(await lab.call('input_text', { text }))).toBe(
      `Typed ${text.length} character(s) on ${device.serial}.`,
    );
    expect(device.phone.fieldText('com.example.notes', 'com.example.notes:id/note_input')).toBe(text);
    expect(device.executedCommands.some((argv) => argv[0] === 'input' && argv[1] === 'text')).toBe(true);
  });

  it('types non-ASCII text and a literal %s through ADBKeyboard', async () => {
    device.phone.setFieldText('com.example.notes', 'com.example.notes:id/note_input', '');
    const text = 'Grüße, 東京 😀 %s\nnext line';
    expect(textOf(await lab.call('input_text', { text, pressEnter: true }))).toBe(
      `Typed ${[...text].length} character(s) via ADBKeyboard and pressed Enter on ${device.serial}.`,
    );
    expect(device.phone.fieldText('com.example.notes', 'com.example.notes:id/note_input')).toBe(text);
    expect(
      device.executedCommands.some((argv) => argv.join(' ').startsWith('am broadcast -a ADB_INPUT_B64 --es msg ')),
    ).toBe(true);
    expect(device.phone.keyboardShown).toBe(false);
  });

  it('rejects empty text', async () => {
    const result = await lab.call('input_text', { text: '' });
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENT');
  });
});

describe('ui_swipe', () => {
  it('wants a direction or all four coordinates', async () => {
    const result = await lab.call('ui_swipe', { x1: 1, y1: 2 });
    expect(!result.ok && result.error.data?.fields).toEqual(['direction', 'x1', 'y1', 'x2', 'y2']);
  });

  it('scrolls a list by ref and direction, and by coordinates', async () => {
    await lab.call('app_launch', { packageName: 'com.example.shop' });
    const list = refOf(textOf(await lab.call('ui_dump')), 'id=product_list');
    expect(textOf(await lab.call('ui_swipe', { ref: list, direction: 'up', distance: 200 }))).toMatch(
      /^Swiped from \(360,\d+\) to \(360,\d+\)/,
    );
    expect(device.phone.scrollOffset('com.example.shop', 'com.example.shop:id/product_list')).toBe(200);
    await lab.call('ui_swipe', { x1: 360, y1: 900, x2: 360, y2: 1000 });
    expect(device.phone.scrollOffset('com.example.shop', 'com.example.shop:id/product_list')).toBe(100);
  });
});

describe('screenshot', () => {
  it('returns the screen as a PNG image at full size', async () => {
    const result = await lab.call('screenshot');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const image = result.content.find((c) => c.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const png = PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64'));
    expect([png.width, png.height]).toEqual([720, 1280]);
    expect(textOf(result)).toBe(`Screenshot of ${device.serial} (720x1280).`);
  });

  it('scales the image down on request', async () => {
    const result = await lab.call('screenshot', { scale: 0.25 });
    const image = result.ok ? result.content.find((c) => c.type === 'image') : undefined;
    const png = PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64'));
    expect([png.width, png.height]).toEqual([180, 320]);
    const tooSmall = await lab.call('screenshot', { scale: 0.01 });
    expect(!tooSmall.ok && tooSmall.error.code).toBe('INVALID_ARGUMENT');
  });
});
