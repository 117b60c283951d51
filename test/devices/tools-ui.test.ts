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

/** The centre ui_dump gave the element whose line contains `needle`. */
function pointOf(dump: string, needle: string): { x: number; y: number } {
  const line = dump.split('\n').find((l) => l.includes(needle)) ?? '';
  const m = /@(\d+),(\d+)/.exec(line);
  if (!m) throw new Error(`no element with ${needle} in:\n${dump}`);
  return { x: Number(m[1]), y: Number(m[2]) };
}

describe('ui_dump', () => {
  it('renders one compact line per meaningful element and skips empty layouts', () => {
    const xml =
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
      '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="p.q" content-desc="" ' +
      'checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" ' +
      'scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,200]">' +
      '<node index="0" text="" resource-id="" class="android.widget.LinearLayout" package="p.q" content-desc="" ' +
      'checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" ' +
      'scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,100]">' +
      '<node index="0" text="Tom &amp; Jerry" resource-id="p.q:id/title" class="android.widget.TextView" ' +
      'package="p.q" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" ' +
      'focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" ' +
      'selected="false" bounds="[0,0][100,50]" />' +
      '<node index="1" text="Wrap" resource-id="p.q:id/wrap" class="android.widget.CheckBox" package="p.q" ' +
      'content-desc="" checkable="true" checked="true" clickable="true" enabled="false" focusable="true" ' +
      'focused="false" scrollable="false" long-clickable="false" password="false" selected="false" ' +
      'bounds="[0,50][100,100]" />' +
      `</node></node></hierarchy>UI hierchary dumped to: /dev/tty\n`;
    const snapshot = parseUiDump('S1', xml, 0);
    expect(snapshot.screen).toEqual({ width: 100, height: 200 });
    expect(snapshot.elements.map((e) => e.text)).toEqual(['Tom & Jerry', 'Wrap']);
    expect(renderSnapshot(snapshot)).toBe(
      'p.q on S1 (100x200): 2 element(s). Tap one with ui_tap {"ref": "eN"}.\n' +
        'e1 TextView "Tom & Jerry" id=title @50,25\n' +
        'e2 CheckBox "Wrap" id=wrap @50,75 clickable checked disabled',
    );
  });

  it("decodes XML's references in one pass, as Android's serializer writes them", () => {
    const node = (text: string, desc: string) =>
      `<node index="0" text="${text}" resource-id="" class="android.widget.TextView" package="p.q" ` +
      `content-desc="${desc}" checkable="false" checked="false" clickable="true" enabled="true" ` +
      'focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" ' +
      'selected="false" bounds="[0,0][100,50]" />';
    const xml =
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
      node('line one&#10;line two&#9;tab', '&quot;quoted&quot; &lt;b&gt; &apos;x&apos;') +
      node('&amp;#10; stays text', '&#x1F600; &#128512; &nbsp; kept') +
      '</hierarchy>';
    const elements = parseUiDump('S1', xml, 0).elements;
    expect(elements.map((e) => [e.text, e.description])).toEqual([
      ['line one\nline two\ttab', `"quoted" <b> 'x'`],
      ['&#10; stays text', '😀 😀 &nbsp; kept'],
    ]);
  });

  it('dumps the live screen with refs, and the raw XML on request', async () => {
    await lab.call('app_launch', { packageName: 'com.example.notes' });
    const dump = textOf(await lab.call('ui_dump'));
    const { width, height } = device.phone.screen;
    expect(dump.split('\n')[0]).toBe(
      `com.example.notes on ${device.serial} (${width}x${height}): 5 element(s). Tap one with ui_tap {"ref": "eN"}.`,
    );
    expect(dump).toMatch(/e\d+ EditText "Write a note" id=note_input @\d+,\d+ clickable/);
    expect(dump).toMatch(/e\d+ Button "Save" id=save_button @\d+,\d+ clickable/);
    // The centre is the node's, in display pixels.
    const input = device.phone.hierarchy().children.find((n) => n.resourceId?.endsWith(':id/note_input'))!.bounds;
    expect(pointOf(dump, 'id=note_input')).toEqual({
      x: Math.round((input.left + input.right) / 2),
      y: Math.round((input.top + input.bottom) / 2),
    });
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

  it('refuses a ref no recent dump gave, a malformed ref, and a point off the screen', async () => {
    const missing = await lab.call('ui_tap', { ref: 'e999' });
    expect(!missing.ok && missing.error.message).toMatch(
      /No element e999 in the recent ui_dumps of .*\(the latest has e1, e2, e3, e4, e5\)/,
    );
    const malformed = await lab.call('ui_tap', { ref: '7' });
    expect(!malformed.ok && malformed.error.code).toBe('INVALID_ARGUMENT');
    const off = await lab.call('ui_tap', { x: 5000, y: 10 });
    const { width, height } = device.phone.screen;
    expect(!off.ok && off.error.message).toContain(`outside the ${width}x${height} screen`);
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
    // The state is read once the tap has answered.
    await lab.service.telemetry.pending(device.serial);
    expect(lab.service.telemetry.snapshot(device.serial).keyboardShown?.value).toBe(true);
    const { x, y } = pointOf(dump, 'id=all_notes_button');
    expect(textOf(await lab.call('ui_tap', { x, y }))).toBe(`Tapped (${x},${y}) on ${device.serial}.`);
    expect(device.phone.foreground().activity).toBe('com.example.notes.NoteListActivity');
  });
});

describe('input_text', () => {
  it('types ASCII with spaces and shell characters exactly, and presses Enter on request', async () => {
    await lab.call('app_launch', { packageName: 'com.example.notes', activity: '.MainActivity' });
    await lab.call('ui_tap', { ref: refOf(textOf(await lab.call('ui_dump')), 'id=note_input') });
    const text = `a b;c&&d|e $(f) 'g' "h" \`i\` 100% done`;
    expect(textOf(await lab.call('input_text', { text }))).toBe(
      `Typed ${text.length} character(s) on ${device.serial}. Checked: the text is in the focused field.`,
    );
    expect(device.phone.fieldText('com.example.notes', 'com.example.notes:id/note_input')).toBe(text);
    expect(device.executedCommands.some((argv) => argv[0] === 'input' && argv[1] === 'text')).toBe(true);
  });

  it('types non-ASCII text and a literal %s through ADBKeyboard, selected to type, then switched back', async () => {
    device.phone.setFieldText('com.example.notes', 'com.example.notes:id/note_input', '');
    const gboard = device.phone.services.setting('secure', 'default_input_method');
    const text = 'Grüße, 東京 😀 %s\nnext line';
    expect(textOf(await lab.call('input_text', { text, pressEnter: true }))).toBe(
      `Typed ${[...text].length} character(s) via ADBKeyboard (switched the keyboard from ${gboard} to ADBKeyboard ` +
        `for the typing, and back) and pressed Enter on ${device.serial}. Checked: the text is in the focused field.`,
    );
    expect(device.phone.services.setting('secure', 'default_input_method')).toBe(gboard);
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
    const centre = device.phone.screen.width / 2;
    expect(textOf(await lab.call('ui_swipe', { ref: list, direction: 'up', distance: 300 }))).toMatch(
      new RegExp(`^Swiped from \\(${centre},\\d+\\) to \\(${centre},\\d+\\)`),
    );
    // Apps scroll in their layout units: the display's pixels divided by its scale.
    const scale = device.phone.layout.scale;
    expect(device.phone.scrollOffset('com.example.shop', 'com.example.shop:id/product_list')).toBe(
      Math.round(300 / scale),
    );
    await lab.call('ui_swipe', { x1: centre, y1: 1400, x2: centre, y2: 1550 });
    expect(device.phone.scrollOffset('com.example.shop', 'com.example.shop:id/product_list')).toBe(
      Math.round(300 / scale) - Math.round(150 / scale),
    );
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
    const { width, height } = device.phone.screen;
    expect([png.width, png.height]).toEqual([width, height]);
    expect(textOf(result)).toBe(`Screenshot of ${device.serial} (${width}x${height}).`);
  });

  it('scales the image down on request', async () => {
    const result = await lab.call('screenshot', { scale: 0.25 });
    const image = result.ok ? result.content.find((c) => c.type === 'image') : undefined;
    const png = PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64'));
    const { width, height } = device.phone.screen;
    expect([png.width, png.height]).toEqual([width / 4, height / 4]);
    const tooSmall = await lab.call('screenshot', { scale: 0.01 });
    expect(!tooSmall.ok && tooSmall.error.code).toBe('INVALID_ARGUMENT');
  });
});
