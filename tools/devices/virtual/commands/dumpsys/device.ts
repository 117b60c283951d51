/**
 * `dumpsys` of the device's hardware-facing services: power, battery, input_method, input,
 * display and SurfaceFlinger --display-id, in the layout of the profile's Android (FORMATS.md).
 */
import type { VirtualPhone } from '../../phone';
import type { DisplaySpec } from '../../profiles';
import { windowName } from './ids';

export function power(phone: VirtualPhone): string {
  return [
    'POWER MANAGER (dumpsys power)',
    `  mWakefulness=${phone.awake ? 'Awake' : 'Asleep'}`,
    `  mInteractive=${phone.awake}`,
    `  mHoldingDisplaySuspendBlocker=${phone.awake}`,
    `  Display Power: state=${phone.awake ? 'ON' : 'OFF'}`,
    '',
  ].join('\n');
}

/** `dumpsys battery [set|unplug|reset …]`: a shell command changes the state, anything else dumps it. */
export function battery(phone: VirtualPhone, args: string[] = []): string {
  const state = phone.hardware.battery;
  const ran = state.command(args);
  if (ran) return ran.out;
  const modern = phone.profile.android.dumps === 'modern';
  const b = state.now;
  return [
    'Current Battery Service state:',
    ...(state.updatesStopped ? ["  (UPDATES STOPPED -- use 'reset' to restart)"] : []),
    `  AC powered: ${b.ac}`,
    `  USB powered: ${b.usb}`,
    `  Wireless powered: ${b.wireless}`,
    ...(modern ? ['  Dock powered: false'] : []),
    '  Max charging current: 500000',
    '  Max charging voltage: 5000000',
    `  Charge counter: ${b.counter}`,
    `  status: ${b.status}`,
    '  health: 2',
    `  present: ${b.present}`,
    `  level: ${b.level}`,
    '  scale: 100',
    '  voltage: 4312',
    `  temperature: ${b.temperature}`,
    '  technology: Li-ion',
    ...(modern ? ['  Charging state: 1', '  Charging policy: 1', '  Capacity level: 3'] : []),
    '',
  ].join('\n');
}

/** `dumpsys deviceidle [force-idle|step|unforce|get …]` (phone/device-idle.ts). */
export function deviceIdle(phone: VirtualPhone, args: string[]): string {
  return phone.hardware.deviceIdle.command(args);
}

export function inputMethod(phone: VirtualPhone): string {
  const ime = phone.services.setting('secure', 'default_input_method') ?? '';
  return [
    'Current Input Method Manager state:',
    '  mSystemReady=true mInteractive=true',
    `  mCurMethodId=${ime}`,
    `  mCurFocusedWindow=${phone.focus ? windowName(phone) : 'null'}`,
    `  mCurFocusedWindowSoftInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE`,
    `  mServedView=${phone.focus ? phone.focus.fieldId : 'null'}`,
    `  mInputShown=${phone.keyboardShown}`,
    `  mShowRequested=${phone.keyboardShown}`,
    '',
  ].join('\n');
}

/**
 * InputReader's devices (`dumpsys input`): KeyboardType 2 is an alphabetic keyboard. Every phone has
 * one of those without any keyboard attached: the system's own virtual keyboard, which EventHub
 * creates at its first scan (`EventHub::createVirtualKeyboardLocked`: id -1, name "Virtual", classes
 * KEYBOARD | ALPHAKEY | DPAD | VIRTUAL) and InputReader lists under that reserved id
 * (`ReservedInputDeviceId::VIRTUAL_KEYBOARD_ID`), as "Device -1: Virtual" with KeyboardType 2
 * (AOSP native services/inputflinger/reader/EventHub.cpp, InputReader.cpp; source.android.com's
 * "Dumpsys Input Diagnostics" sample shows it on a phone).
 */
export function input(phone: VirtualPhone): string {
  const devices: [number, string, boolean, number, string][] = [
    [-1, 'Virtual', false, 2, 'KEYBOARD | DPAD'],
    [2, 'gpio-keys', false, 1, 'KEYBOARD'],
    [3, 'touchscreen', false, 0, 'TOUCHSCREEN'],
    ...(phone.conditions.hardwareKeyboard
      ? [[4, 'Keyboard K380', true, 2, 'KEYBOARD | DPAD'] as [number, string, boolean, number, string]]
      : []),
  ];
  const lines = ['INPUT MANAGER (dumpsys input)', '', 'Input Reader State:'];
  devices.forEach(([id, name, external, type, sources], i) => {
    const touch = sources === 'TOUCHSCREEN' ? touchDisplay(phone) : [];
    lines.push(
      `  Device ${id}: ${name}`,
      `    EventHub Devices: [ ${id} ] `,
      `    Generation: ${24 + i}`,
      `    IsExternal: ${external}`,
      '    AssociatedDisplayPort: <none>',
      '    HasMic:     false',
      `    Sources: ${sources}`,
      `    KeyboardType: ${type}`,
      '    ControllerNum: 0',
      ...touch,
    );
  });
  return `${lines.join('\n')}\n`;
}

/**
 * The touchscreen's display in its mapper's dump: since Android 10 its viewport
 * (TouchInputMapper::dumpDisplay, DisplayViewport::toString: `Viewport INTERNAL: displayId=…,
 * orientation=N, logicalFrame=[…]`), before that the surface (`SurfaceOrientation: N`, Android 9's
 * TouchInputMapper::dumpSurface). The phone never turns: orientation 0.
 */
function touchDisplay(phone: VirtualPhone): string[] {
  const d = phone.hardware.display;
  const head = '    Touch Input Mapper (mode - DIRECT):';
  if (phone.profile.android.dumps === 'legacy')
    return [
      head,
      `      SurfaceWidth: ${d.width}px`,
      `      SurfaceHeight: ${d.height}px`,
      '      SurfaceOrientation: 0',
    ];
  const frame = `[0, 0, ${d.width}, ${d.height}]`;
  return [
    head,
    `      Viewport INTERNAL: displayId=0, uniqueId=local:${d.physicalId}, port=${d.port}, orientation=0, ` +
      `logicalFrame=${frame}, physicalFrame=${frame}, deviceSize=[${d.width}, ${d.height}], isActive=[1]`,
  ];
}

function viewport(phone: VirtualPhone, d: DisplaySpec, i: number): string {
  const active = i === phone.hardware.activeDisplay;
  const legacy = phone.profile.android.dumps === 'legacy';
  const frame = `Rect(0, 0 - ${d.width}, ${d.height})`;
  const id = active ? 0 : i;
  const fields = [
    'type=INTERNAL',
    `valid=${active || !legacy}`,
    ...(legacy ? [] : [`isActive=${active}`]),
    `displayId=${id}`,
    `uniqueId='local:${d.physicalId}'`,
    `physicalPort=${d.port}`,
    'orientation=0',
    `logicalFrame=${frame}`,
    `physicalFrame=${frame}`,
    `deviceWidth=${d.width}`,
    `deviceHeight=${d.height}`,
  ];
  return `DisplayViewport{${fields.join(', ')}}`;
}

export function display(phone: VirtualPhone): string {
  const displays = phone.profile.displays;
  return [
    'DISPLAY MANAGER (dumpsys display)',
    '  mSafeMode=false',
    '  mPendingTraversal=false',
    `  mViewports=[${displays.map((d, i) => viewport(phone, d, i)).join(', ')}]`,
    '',
    `Display Devices: size=${displays.length}`,
    ...displays.map(
      (d, i) =>
        `  DisplayDeviceInfo{"${d.name}": uniqueId="local:${d.physicalId}", ${d.width} x ${d.height}, modeId 1, ` +
        `renderFrameRate 60.0, density ${d.density}, ${d.density}.0 x ${d.density}.0 dpi, touch INTERNAL, rotation ` +
        `0, type INTERNAL, address {port=${d.port}}, ` +
        `state ${i === phone.hardware.activeDisplay && phone.awake ? 'ON' : 'OFF'}, ` +
        'FLAG_ALLOWED_TO_BE_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE, ' +
        'FLAG_SUPPORTS_PROTECTED_BUFFERS}',
    ),
    '',
  ].join('\n');
}

/** `dumpsys SurfaceFlinger --display-id` (Android 10+): one line per physical display. */
export function surfaceFlinger(phone: VirtualPhone, args: string[]): string {
  if (!args.includes('--display-id') || phone.profile.android.dumps === 'legacy')
    return (
      'Build configuration: [sf PRESENT_TIME_OFFSET=0 FORCE_HWC_FOR_RBG_TO_YUV=1 MAX_VIRT_DISPLAY_DIM=4096 ' +
      'RUNNING_WITHOUT_SYNC_FRAMEWORK=0 NUM_FRAMEBUFFER_SURFACE_BUFFERS=3]\n'
    );
  return phone.profile.displays
    .map(
      (d) =>
        `Display ${d.physicalId} (HWC display ${d.hwcId}): port=${d.port} ` +
        `pnpId=${phone.profile.brand === 'google' ? 'GGL' : 'QCM'} displayName="${d.name}"\n`,
    )
    .join('');
}
