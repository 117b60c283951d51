/**
 * Rule (issue 16, "every device tool right on every profile"): on each family of phones the virtual
 * phone answers as (pixel, samsung, xiaomi, legacy, foldable), the UI tools — ui_dump, ui_tap,
 * ui_swipe, input_text, screenshot — called through the real adb server and the pipeline, give the
 * right answer, or a clear PERMISSION_DENIED / UNSUPPORTED / NOT_FOUND naming the setting or step
 * that fixes it. Never a success that did not happen: refs from a screen that changed are refused,
 * typing is read back, a black frame is said to be black.
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { telemetryKey } from '../../tools/devices';
import { PROFILE_NAMES } from '../../tools/devices/virtual';
import { textOf } from './device-lab';
import { ANSWERS, type ProfileLab, allowInjection, errorOf, pointOf, refOf, startProfileLab } from './profile-lab';

const NOTES = 'com.example.notes';
const NOTE_INPUT = `${NOTES}:id/note_input`;

describe.each(PROFILE_NAMES)('the UI tools on the %s profile', (profile) => {
  const answers = ANSWERS[profile];
  let p: ProfileLab;

  beforeAll(async () => {
    p = await startProfileLab(profile);
  });

  afterAll(async () => {
    await p?.close();
  });

  // Every test but the one about the refusal runs with the OEM's security setting on.
  beforeEach(() => allowInjection(p.device));

  /** The Notes editor in front, its field empty and unfocused. */
  async function openEditor(): Promise<string> {
    await p.run('app_force_stop', { packageName: NOTES });
    await p.run('app_launch', { packageName: NOTES, activity: '.MainActivity' });
    return textOf(await p.run('ui_dump'));
  }

  const field = () => p.device.phone.fieldText(NOTES, NOTE_INPUT);

  it('ui_dump reads the screen with the display size from `wm size`, not from the window', async () => {
    await p.run('app_launch', { packageName: NOTES, activity: '.MainActivity' });
    const result = await p.run('ui_dump');
    expect(result.ok).toBe(true);
    const { width, height } = p.device.phone.screen;
    expect(textOf(result).split('\n')[0]).toBe(
      `${NOTES} on ${p.device.serial} (${width}x${height}): 5 element(s). Tap one with ui_tap {"ref": "eN"}.`,
    );
    const structured = (result as { structured: { screen: unknown; attempts: number } }).structured;
    expect(structured.screen).toEqual({ width, height });
    // A window transition just happened: some families' uiautomator fails once, and the tool retries.
    expect(structured.attempts).toBe(answers.dumpFlakesAfterTransition ? 2 : 1);
  });

  it('ui_dump retries "could not get idle state" and "null root node" with pauses, within its time', async () => {
    p.device.phone.conditions.idleStateFailures = 2;
    const idle = await p.run('ui_dump');
    expect((idle as { structured: { attempts: number } }).structured.attempts).toBe(3);
    p.device.phone.conditions.nullRootFailures = 1;
    const nullRoot = await p.run('ui_dump');
    expect((nullRoot as { structured: { attempts: number } }).structured.attempts).toBe(2);
  });

  const tapRule = answers.injectionRefused ? 'is PERMISSION_DENIED naming the security setting until it is on' : 'taps';
  it(`ui_tap ${tapRule}`, async () => {
    const setting = p.device.phone.profile.oem.inputInjection;
    if (setting) p.device.phone.props.set(setting.prop, '0');
    const dump = await openEditor();
    const input = pointOf(dump, 'id=note_input');
    if (answers.injectionRefused) {
      const refused = errorOf(await p.run('ui_tap', input));
      expect(refused.code).toBe('PERMISSION_DENIED');
      expect(refused.message).toContain('INJECT_EVENTS');
      expect(refused.hint).toContain('"USB debugging (Security settings)"');
      expect(p.device.phone.focus).toBeNull();
      allowInjection(p.device);
    }
    expect(textOf(await p.run('ui_tap', input))).toBe(`Tapped (${input.x},${input.y}) on ${p.device.serial}.`);
    expect(p.device.phone.focus?.fieldId).toBe(NOTE_INPUT);
  });

  it('ui_tap refuses a ref from a dump taken before the screen changed, and taps one still on screen', async () => {
    const dump = await openEditor();
    // Still there after an action (the field took focus): checked against a fresh dump, then tapped.
    expect((await p.run('ui_tap', { ref: refOf(dump, 'id=note_input') })).ok).toBe(true);
    expect(textOf(await p.run('ui_tap', { ref: refOf(dump, 'id=all_notes_button') }))).toMatch(
      /^Tapped e\d+ Button "All notes"/,
    );
    expect(p.device.phone.foreground().activity).toBe(`${NOTES}.NoteListActivity`);
    // The list is in front now: the editor's Save button is not, whatever stands where it was.
    const stale = errorOf(await p.run('ui_tap', { ref: refOf(dump, 'id=save_button') }));
    expect(stale.code).toBe('NOT_FOUND');
    expect(stale.message).toMatch(/is no longer on the screen .* the screen changed since the ui_dump/);
    expect(stale.hint).toContain('Take a new ui_dump');
    expect(p.device.phone.foreground().activity).toBe(`${NOTES}.NoteListActivity`);
  });

  it('ui_swipe scrolls a list by ref and direction', async () => {
    await p.run('app_launch', { packageName: 'com.example.shop' });
    const list = refOf(textOf(await p.run('ui_dump')), 'id=product_list');
    expect((await p.run('ui_swipe', { ref: list, direction: 'up', distance: 400 })).ok).toBe(true);
    expect(p.device.phone.scrollOffset('com.example.shop', 'com.example.shop:id/product_list')).toBeGreaterThan(0);
  });

  it('input_text types ASCII with `input text` and reads the field back', async () => {
    const dump = await openEditor();
    await p.run('ui_tap', { ref: refOf(dump, 'id=note_input') });
    const text = `it's "50% off" & more`;
    expect(textOf(await p.run('input_text', { text }))).toBe(
      `Typed ${text.length} character(s) on ${p.device.serial}. Checked: the text is in the focused field.`,
    );
    expect(field()).toBe(text);
  });

  it('input_text sends long text in chunks, all of it arriving', async () => {
    const dump = await openEditor();
    await p.run('ui_tap', { ref: refOf(dump, 'id=note_input') });
    const text = 'lorem ipsum '.repeat(40).trim();
    const from = p.device.executedCommands.length;
    expect((await p.run('input_text', { text })).ok).toBe(true);
    expect(field()).toBe(text);
    expect(p.device.executedCommands.slice(from).filter((a) => a[0] === 'input' && a[1] === 'text')).toHaveLength(3);
  });

  const nonAsciiRule =
    answers.adbKeyboard === 'absent' ? 'UNSUPPORTED, saying how to install ADBKeyboard' : 'typed through ADBKeyboard';
  it(`input_text with non-ASCII text: ${nonAsciiRule}`, async () => {
    const dump = await openEditor();
    await p.run('ui_tap', { ref: refOf(dump, 'id=note_input') });
    const keyboard = p.device.phone.services.setting('secure', 'default_input_method');
    const text = 'héllo wörld ✓\nzweite Zeile';
    const result = await p.run('input_text', { text });
    if (answers.adbKeyboard === 'absent') {
      const e = errorOf(result);
      expect(e.code).toBe('UNSUPPORTED');
      expect(e.message).toContain('ADBKeyboard input method, and it is not installed');
      expect(e.hint).toContain('adb install ADBKeyboard.apk');
      expect(field()).toBe('');
      return;
    }
    // Every setting the tool changed is said, even those it put back (xiaomi: ADBKeyboard not yet enabled).
    const enabledByUs = answers.adbKeyboard === 'enable-and-switch';
    const switched =
      answers.adbKeyboard === 'selected'
        ? ''
        : ` (${enabledByUs ? 'enabled ADBKeyboard and ' : ''}switched the keyboard from ${keyboard} to ADBKeyboard ` +
          `for the typing, and back${enabledByUs ? ', then disabled ADBKeyboard again' : ''})`;
    expect(textOf(result)).toBe(
      `Typed ${[...text].length} character(s) via ADBKeyboard${switched} ` +
        `on ${p.device.serial}. Checked: the text is in the focused field.`,
    );
    expect(field()).toBe(text);
    // Whatever was selected and enabled before is so again.
    expect(p.device.phone.services.setting('secure', 'default_input_method')).toBe(keyboard);
    const enabled = p.device.phone.services.setting('secure', 'enabled_input_methods') ?? '';
    expect(enabled.includes('com.android.adbkeyboard/.AdbIME')).toBe(answers.adbKeyboard !== 'enable-and-switch');
  });

  it('input_text without focus is refused by the gate (keyboard hidden), or fails: the text went nowhere', async () => {
    await openEditor();
    await p.lab.service.refreshTelemetry(p.device.serial);
    const gated = errorOf(await p.run('input_text', { text: 'lost' }));
    expect(gated.code).toBe('EXECUTION_FAILED');
    expect(gated.data).toMatchObject({ gate: 'environment' });
    // Past the gate (the same reading, but too old to infer anything from), the read-back catches it.
    p.lab.service.telemetry.store.set(telemetryKey(p.device.serial, 'keyboardShown'), false, Date.now() - 60_000);
    const direct = errorOf(await p.run('input_text', { text: 'lost' }));
    expect(direct.data).not.toHaveProperty('gate');
    expect(direct.message).toMatch(/Nothing on the screen of .* has focus after typing, so the text went nowhere/);
  });

  it('input_text goes through with a hardware keyboard, which shows no soft keyboard', async () => {
    p.device.phone.conditions.hardwareKeyboard = true;
    try {
      const dump = await openEditor();
      await p.run('ui_tap', { ref: refOf(dump, 'id=note_input') });
      expect(p.device.phone.keyboardShown).toBe(false);
      // The state is read once the tap has answered.
      await p.lab.service.telemetry.pending(p.device.serial);
      expect(p.lab.service.telemetry.snapshot(p.device.serial).hardwareKeyboard?.value).toBe(true);
      expect((await p.run('input_text', { text: 'typed' })).ok).toBe(true);
      expect(field()).toBe('typed');
    } finally {
      p.device.phone.conditions.hardwareKeyboard = false;
    }
  });

  it('screenshot returns the display that is on at its real size', async () => {
    await p.run('app_launch', { packageName: NOTES, activity: '.MainActivity' });
    const result = await p.run('screenshot');
    const image = result.ok ? result.content.find((c) => c.type === 'image') : undefined;
    const png = PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64'));
    const { width, height } = p.device.phone.screen;
    expect([png.width, png.height]).toEqual([width, height]);
    expect(textOf(result)).toMatch(
      new RegExp(`^Screenshot of ${p.device.serial}( display \\d+)? \\(${width}x${height}\\)\\.$`),
    );
  });

  it('screenshot of a secure window says why it is black, and ui_dump still reads it', async () => {
    await p.run('app_launch', { packageName: 'com.example.shop', activity: '.CartActivity' });
    expect(textOf(await p.run('screenshot'))).toContain('The focused window is a secure one (FLAG_SECURE');
    expect(textOf(await p.run('ui_dump'))).toContain('Checkout');
  });

  it('a locked phone: ui_dump says so, taps and launches are refused by the gate, a swipe up unlocks it', async () => {
    p.device.phone.conditions.locked = true;
    await p.lab.service.refreshTelemetry(p.device.serial);
    expect(textOf(await p.run('ui_dump'))).toContain('The phone is locked');
    const tap = errorOf(await p.run('ui_tap', { x: 10, y: 10 }));
    expect(tap.data).toMatchObject({ gate: 'environment' });
    expect(tap.message).toContain('is locked');
    expect(errorOf(await p.run('app_launch', { packageName: NOTES })).hint).toContain('ui_swipe up');
    const { width, height } = p.device.phone.screen;
    const x = Math.round(width / 2);
    // A PIN lock stays: the swipe happened, and the result says the phone is still locked.
    p.device.phone.conditions.lockSecure = true;
    expect(textOf(await p.run('ui_swipe', { x1: x, y1: height - 100, x2: x, y2: 100 }))).toContain(
      'The phone is locked now (the lock screen shows)',
    );
    p.device.phone.conditions.lockSecure = false;
    expect((await p.run('ui_swipe', { x1: x, y1: height - 100, x2: x, y2: 100 })).ok).toBe(true);
    expect(p.device.phone.conditions.locked).toBe(false);
    expect(p.lab.service.telemetry.snapshot(p.device.serial).locked?.value).toBe(false);
  });
});

describe('a foldable', () => {
  let p: ProfileLab;

  beforeAll(async () => {
    p = await startProfileLab('foldable');
  });

  afterAll(async () => {
    await p?.close();
  });

  const shot = async (args: Record<string, unknown> = {}) => {
    const result = await p.run('screenshot', args);
    const image = result.ok ? result.content.find((c) => c.type === 'image') : undefined;
    return {
      text: textOf(result),
      png: image ? PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64')) : undefined,
    };
  };

  it('screenshot skips the multi-display warning and captures the display that is on', async () => {
    const unfolded = await shot();
    expect(unfolded.text).toBe(`Screenshot of ${p.device.serial} display 4619827259835644672 (2208x1840).`);
    p.device.phone.setFolded(true);
    const folded = await shot();
    expect(folded.text).toBe(`Screenshot of ${p.device.serial} display 4619827551948147201 (1080x2092).`);
    expect(folded.text).not.toContain('black');
    // The phone's PNG or its raw pixels (screenshot.ts tries both), of the display that is on.
    expect(
      p.device.executedCommands
        .filter((a) => a[0] === 'screencap')
        .at(-1)
        ?.filter((a) => a !== '-p'),
    ).toEqual(['screencap', '-d', '4619827551948147201']);
    p.device.phone.setFolded(false);
  });

  it('screenshot takes a display (physical or logical id), and names the displays for a wrong one', async () => {
    expect((await shot({ display: '0' })).png?.width).toBe(2208);
    const off = await shot({ display: '4619827551948147201' });
    expect(off.png?.width).toBe(1080);
    expect(off.text).toContain('Display 4619827551948147201 is off, so the image is black');
    const wrong = errorOf(await p.run('screenshot', { display: '7' }));
    expect(wrong.code).toBe('NOT_FOUND');
    expect(wrong.hint).toContain('4619827259835644672 (logical 0, 2208x1840, on)');
  });

  it('ui_dump and taps use the open display', async () => {
    p.device.phone.setFolded(true);
    const dump = textOf(await p.run('ui_dump'));
    expect(dump.split('\n')[0]).toContain('(1080x2092)');
    p.device.phone.setFolded(false);
  });
});

describe('a screen that never goes idle', () => {
  let p: ProfileLab;

  beforeAll(async () => {
    p = await startProfileLab('pixel');
  });

  afterAll(async () => {
    await p?.close();
  });

  it('ui_dump gives up within its time and says what kept the screen busy', async () => {
    p.device.phone.conditions.idleStateFailures = 1_000;
    const e = errorOf(await p.lab.call('ui_dump'));
    p.device.phone.conditions.idleStateFailures = 0;
    expect(e.code).toBe('EXECUTION_FAILED');
    expect(e.message).toMatch(
      /it never went idle \("ERROR: could not get idle state\.", \d+ attempt\(s\) over \d+\.\d s\)/,
    );
    expect(e.hint).toContain('keeps animating');
  }, 60_000);
});
