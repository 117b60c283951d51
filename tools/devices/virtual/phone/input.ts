/** Input events on the virtual phone: taps hit nodes by bounds, swipes scroll lists, keys navigate or type. */
import type { VirtualPhone } from '../phone';
import { SYSTEM_PID } from '../phone';
import { keyboardArea, keyboardKeys } from './keyboard';
import { contains, hitTest, scrollableAt } from './ui';

export function tap(phone: VirtualPhone, x: number, y: number): void {
  if (!phone.awake || phone.conditions.locked) return;
  const { width, contentHeight } = phone.layout;
  if (phone.keyboardShown && contains(keyboardArea(width, contentHeight), x, y)) {
    const key = keyboardKeys(width, contentHeight).find((k) => contains(k.bounds, x, y));
    if (key?.value === 'DEL') deleteChar(phone);
    else if (key?.value === 'ENTER') phone.keyboardShown = false;
    else if (key) typeText(phone, key.value);
    return;
  }
  const node = hitTest(phone.hierarchy(), x, y);
  if (!node) return;
  const fg = phone.foreground();
  if (node.editable && node.resourceId) {
    phone.focus = { packageName: fg.packageName, activity: fg.activity, fieldId: node.resourceId };
    // With a hardware keyboard attached Android shows no soft keyboard (unless the user asked for it).
    phone.keyboardShown =
      !phone.conditions.hardwareKeyboard || phone.services.setting('secure', 'show_ime_with_hard_keyboard') === '1';
    phone.log.add(
      'D',
      'InputMethodManager',
      `showSoftInput for ${node.resourceId}`,
      phone.pidOf(fg.packageName) ?? SYSTEM_PID,
    );
    return;
  }
  if (!node.action) return;
  if (node.action.startsWith('launch:')) {
    phone.launchApp(node.action.slice('launch:'.length));
    return;
  }
  phone.appFor(fg.packageName)?.onAction(node.action, phone.contextFor(fg.packageName, fg.activity));
}

/**
 * A vertical swipe over a scrollable list scrolls it by the distance (finger up = content up); a
 * swipe up on an insecure keyguard unlocks the phone. Lists scroll in layout units (phone/layout.ts).
 */
export function swipe(phone: VirtualPhone, x1: number, y1: number, _x2: number, y2: number): void {
  if (!phone.awake) return;
  if (phone.conditions.locked) {
    if (y1 - y2 > phone.layout.height / 4) phone.dismissKeyguard();
    return;
  }
  const list = scrollableAt(phone.hierarchy(), x1, y1);
  if (!list?.resourceId) return;
  const fg = phone.foreground();
  const scale = phone.layout.scale;
  const viewport = (list.bounds.bottom - list.bounds.top) / scale;
  const max = Math.max(0, (list.scrollExtent ?? viewport) - viewport);
  const delta = Math.round((y1 - y2) / scale);
  const next = Math.min(max, Math.max(0, phone.scrollOffset(fg.packageName, list.resourceId) + delta));
  phone.setScrollOffset(fg.packageName, list.resourceId, Math.round(next));
}

/** Appends to the focused field; returns false when no field has focus (the text goes nowhere). */
export function typeText(phone: VirtualPhone, text: string): boolean {
  const f = phone.focus;
  if (!f || !phone.awake || phone.conditions.locked) return false;
  phone.setFieldText(f.packageName, f.fieldId, phone.fieldText(f.packageName, f.fieldId) + text);
  return true;
}

export function setFocusedText(phone: VirtualPhone, text: string): boolean {
  const f = phone.focus;
  if (!f) return false;
  phone.setFieldText(f.packageName, f.fieldId, text);
  return true;
}

function deleteChar(phone: VirtualPhone): void {
  const f = phone.focus;
  if (!f) return;
  const chars = [...phone.fieldText(f.packageName, f.fieldId)];
  chars.pop();
  phone.setFieldText(f.packageName, f.fieldId, chars.join(''));
}

function adjustVolume(phone: VirtualPhone, delta: number | null): void {
  const system = phone.services.settings.system;
  const current = Number(system.get('volume_music') ?? '8');
  system.set('volume_music', String(delta === null ? 0 : Math.min(15, Math.max(0, current + delta))));
}

const MEDIA_KEYS: Record<string, string> = {
  KEYCODE_MEDIA_PLAY: 'play',
  KEYCODE_MEDIA_PAUSE: 'pause',
  KEYCODE_MEDIA_PLAY_PAUSE: 'play-pause',
  KEYCODE_MEDIA_NEXT: 'next',
  KEYCODE_MEDIA_PREVIOUS: 'previous',
  KEYCODE_MEDIA_STOP: 'stop',
};

/** Keys that exist but change nothing on this phone. */
const INERT_KEYS = new Set([
  'KEYCODE_MENU',
  'KEYCODE_APP_SWITCH',
  'KEYCODE_ESCAPE',
  'KEYCODE_TAB',
  'KEYCODE_SEARCH',
  'KEYCODE_CAMERA',
  'KEYCODE_DPAD_UP',
  'KEYCODE_DPAD_DOWN',
  'KEYCODE_DPAD_LEFT',
  'KEYCODE_DPAD_RIGHT',
  'KEYCODE_DPAD_CENTER',
  'KEYCODE_MOVE_HOME',
  'KEYCODE_MOVE_END',
  'KEYCODE_FORWARD_DEL',
  'KEYCODE_NOTIFICATION',
  'KEYCODE_UNKNOWN',
]);

/** Applies a key by name (`KEYCODE_BACK`); returns false for a name the phone does not know. */
export function pressKey(phone: VirtualPhone, name: string): boolean {
  const letter = /^KEYCODE_([A-Z0-9])$/.exec(name)?.[1];
  if (letter) {
    typeText(phone, letter.toLowerCase());
    return true;
  }
  const media = MEDIA_KEYS[name];
  if (media) {
    phone.services.media.dispatch(media);
    return true;
  }
  switch (name) {
    case 'KEYCODE_HOME':
      if (phone.awake) phone.goHome();
      return true;
    case 'KEYCODE_BACK':
      if (phone.awake) phone.back();
      return true;
    case 'KEYCODE_DEL':
      deleteChar(phone);
      return true;
    case 'KEYCODE_ENTER':
      phone.keyboardShown = false;
      return true;
    case 'KEYCODE_SPACE':
      typeText(phone, ' ');
      return true;
    case 'KEYCODE_PASTE':
      typeText(phone, phone.services.clipboard);
      return true;
    case 'KEYCODE_POWER':
      phone.awake = !phone.awake;
      return true;
    case 'KEYCODE_WAKEUP':
      phone.awake = true;
      return true;
    case 'KEYCODE_SLEEP':
      phone.awake = false;
      return true;
    case 'KEYCODE_VOLUME_UP':
      adjustVolume(phone, 1);
      return true;
    case 'KEYCODE_VOLUME_DOWN':
      adjustVolume(phone, -1);
      return true;
    case 'KEYCODE_VOLUME_MUTE':
      adjustVolume(phone, null);
      return true;
    default:
      return INERT_KEYS.has(name);
  }
}
