/**
 * Rule: input_text that selects ADBKeyboard for text beyond ASCII always tries to put the person's
 * keyboard back — after a success, a failure, a cancel or the call's timeout — on a deadline of its
 * own, and says it did only when the phone said so. When the keyboard could not be put back the
 * answer names the keyboard and the `ime set` command that selects it again; it never says "and back".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADB_KEYBOARD } from '../../tools/devices/tools/adb-keyboard';
import { textOf } from './device-lab';
import { type ProfileLab, allowInjection, errorOf, refOf, startProfileLab } from './profile-lab';

const NOTES = 'com.example.notes';
const NOTE_INPUT = `${NOTES}:id/note_input`;
const TEXT = 'héllo wörld ✓';

/** The phone's keyboard settings as `settings get secure …` reads them. */
function keyboardOf(p: ProfileLab): { selected: string | undefined; enabled: string[] } {
  const services = p.device.phone.services;
  const enabled = services.setting('secure', 'enabled_input_methods') ?? '';
  return { selected: services.setting('secure', 'default_input_method'), enabled: enabled.split(':') };
}

/** The Notes editor in front with its field focused, as a person leaves it before typing. */
async function focusNoteField(p: ProfileLab): Promise<void> {
  allowInjection(p.device);
  await p.run('app_force_stop', { packageName: NOTES });
  await p.run('app_launch', { packageName: NOTES, activity: '.MainActivity' });
  await p.run('ui_tap', { ref: refOf(textOf(await p.run('ui_dump')), 'id=note_input') });
}

/** True once the phone has started ADBKeyboard's broadcast. */
function broadcastStarted(p: ProfileLab): boolean {
  return p.device.executedCommands.some((argv) => argv[0] === 'am' && argv.includes('ADB_INPUT_B64'));
}

describe.each(['pixel', 'xiaomi'] as const)('a cancelled input_text on the %s profile', (profile) => {
  let p: ProfileLab;

  beforeAll(async () => {
    p = await startProfileLab(profile);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('still switches the keyboard back (and disables ADBKeyboard if it enabled it)', async () => {
    await focusNoteField(p);
    const before = keyboardOf(p);
    // ADBKeyboard's broadcast never answers (system_server stuck): the call is cancelled mid-typing.
    p.device.faults = { hangCommands: ['am'] };
    const controller = new AbortController();
    const call = p.lab.family.call('input_text', { text: TEXT }, { signal: controller.signal });
    await vi.waitFor(() => expect(broadcastStarted(p)).toBe(true), { timeout: 10_000 });
    expect(keyboardOf(p).selected).toBe(ADB_KEYBOARD);
    controller.abort();
    const e = errorOf(await call);
    expect(e.data).toMatchObject({ cancelled: true });
    // The switch back goes on after the cancelled call has answered.
    await vi.waitFor(() => expect(keyboardOf(p)).toEqual(before), { timeout: 10_000 });
    p.device.faults = {};
  });
});

describe('an input_text whose switch back fails', () => {
  let p: ProfileLab;
  let keyboard: string;

  beforeAll(async () => {
    p = await startProfileLab('pixel');
    keyboard = keyboardOf(p).selected ?? '';
  });

  afterAll(async () => {
    await p?.close();
  });

  afterEach(() => {
    p.device.faults = {};
    // The person's keyboard usable and selected again, as before each test.
    p.device.phone.services.settings.secure.set('enabled_input_methods', `${keyboard}:${ADB_KEYBOARD}`);
    p.device.phone.services.settings.secure.set('default_input_method', keyboard);
  });

  /** Runs `change` on the phone as ADBKeyboard's broadcast starts. */
  function whileTyping(change: () => void): void {
    p.device.faults = {
      beforeCommand: (argv) => {
        if (argv[0] === 'am') change();
      },
    };
  }

  it('says the keyboard could NOT be switched back, naming it and the `ime set` command', async () => {
    await focusNoteField(p);
    // The person's keyboard is disabled meanwhile: `ime set` refuses it
    // ("Unknown input method … cannot be selected for user #0", exit status 255).
    whileTyping(() => p.device.phone.services.settings.secure.set('enabled_input_methods', ADB_KEYBOARD));
    const text = textOf(await p.run('input_text', { text: TEXT }));
    expect(text).toContain(`switched the keyboard from ${keyboard} to ADBKeyboard for the typing)`);
    expect(text).not.toContain('and back');
    expect(text).toContain(`The keyboard could NOT be switched back to ${keyboard}`);
    expect(text).toContain(`Unknown input method ${keyboard} cannot be selected for user #0`);
    expect(text).toContain(`run \`ime set '${keyboard}'\` in \`adb -s ${p.device.serial} shell\``);
    expect(text).toContain('Checked: the text is in the focused field.');
    expect(p.device.phone.fieldText(NOTES, NOTE_INPUT)).toBe(TEXT);
    // What the answer says is what the phone shows.
    expect(keyboardOf(p).selected).toBe(ADB_KEYBOARD);
  });

  it('gives up a switch back that does not answer on its own deadline, and says so', async () => {
    await focusNoteField(p);
    // From the broadcast on, every `ime` command hangs in system_server.
    whileTyping(() => {
      p.device.faults.hangCommands = ['ime'];
    });
    const text = textOf(await p.run('input_text', { text: TEXT }));
    expect(text).not.toContain('and back');
    expect(text).toContain(`The keyboard could NOT be switched back to ${keyboard}: \`ime set '${keyboard}'\` failed`);
    expect(text).toContain(`Device ${p.device.serial} did not answer`);
    expect(keyboardOf(p).selected).toBe(ADB_KEYBOARD);
  }, 30_000);
});
