/** Android key codes by number, for `input keyevent 4` and ADBKeyboard's `--ei code N`. */
const NAMED: Record<number, string> = {
  0: 'KEYCODE_UNKNOWN',
  3: 'KEYCODE_HOME',
  4: 'KEYCODE_BACK',
  19: 'KEYCODE_DPAD_UP',
  20: 'KEYCODE_DPAD_DOWN',
  21: 'KEYCODE_DPAD_LEFT',
  22: 'KEYCODE_DPAD_RIGHT',
  23: 'KEYCODE_DPAD_CENTER',
  24: 'KEYCODE_VOLUME_UP',
  25: 'KEYCODE_VOLUME_DOWN',
  26: 'KEYCODE_POWER',
  27: 'KEYCODE_CAMERA',
  61: 'KEYCODE_TAB',
  62: 'KEYCODE_SPACE',
  66: 'KEYCODE_ENTER',
  67: 'KEYCODE_DEL',
  82: 'KEYCODE_MENU',
  83: 'KEYCODE_NOTIFICATION',
  84: 'KEYCODE_SEARCH',
  85: 'KEYCODE_MEDIA_PLAY_PAUSE',
  86: 'KEYCODE_MEDIA_STOP',
  87: 'KEYCODE_MEDIA_NEXT',
  88: 'KEYCODE_MEDIA_PREVIOUS',
  111: 'KEYCODE_ESCAPE',
  112: 'KEYCODE_FORWARD_DEL',
  122: 'KEYCODE_MOVE_HOME',
  123: 'KEYCODE_MOVE_END',
  126: 'KEYCODE_MEDIA_PLAY',
  127: 'KEYCODE_MEDIA_PAUSE',
  164: 'KEYCODE_VOLUME_MUTE',
  187: 'KEYCODE_APP_SWITCH',
  223: 'KEYCODE_SLEEP',
  224: 'KEYCODE_WAKEUP',
  279: 'KEYCODE_PASTE',
};

for (let i = 0; i <= 9; i++) NAMED[7 + i] = `KEYCODE_${i}`;
for (let i = 0; i < 26; i++) NAMED[29 + i] = `KEYCODE_${String.fromCharCode(65 + i)}`;

/** `4`, `BACK` or `KEYCODE_BACK` → `KEYCODE_BACK`; undefined for an unknown number. */
export function keyName(arg: string): string | undefined {
  if (/^\d+$/.test(arg)) return NAMED[Number(arg)];
  const upper = arg.toUpperCase();
  return upper.startsWith('KEYCODE_') ? upper : `KEYCODE_${upper}`;
}
