/**
 * Environment rules for the device tools, read from the telemetry the device service writes.
 * Each rule looks at the device the call targets (its `serial`, or the only attached device) and
 * refuses only on a fresh, known-bad reading; missing or stale readings let the call through. The
 * rules on the screen state wait for a read of it in flight (the one after the device's last action).
 * A locked phone refuses taps, typing and launches (a swipe, which may unlock it, passes).
 */
import type { EnvironmentRule, TelemetryRead } from '../core/pipeline/environment-gate';
import type { Tool } from '../core/tool';
import type { DeviceService } from './device-service';
import { offlineHint } from './manager/device-errors';
import { telemetryKey } from './manager/device-telemetry';

export const DEVICE_TOOL_IDS: ReadonlySet<string> = new Set([
  'shell_execute',
  'app_list',
  'app_launch',
  'app_install',
  'app_uninstall',
  'app_force_stop',
  'app_info',
  'get_device_info',
  'get_set_settings',
  'control_media',
  'clipboard',
  'get_time',
  'logcat',
  'ui_tap',
  'ui_swipe',
  'ui_dump',
  'screenshot',
  'input_text',
  'get_location',
  'notification_read',
]);

function targetOf(service: DeviceService, args: unknown): string | undefined {
  const serial = (args as { serial?: unknown } | null | undefined)?.serial;
  return typeof serial === 'string' ? serial : service.soleSerial();
}

function rule(
  id: string,
  tools: (tool: Tool) => boolean,
  check: (read: TelemetryRead, serial: string) => { message: string; hint: string } | undefined,
  service: DeviceService,
  screenState = true,
): EnvironmentRule {
  return {
    id,
    appliesTo: tools,
    check(read, args) {
      const serial = targetOf(service, args);
      return serial === undefined ? undefined : check(read, serial);
    },
    ...(screenState
      ? {
          pending(args: unknown) {
            const serial = targetOf(service, args);
            return serial === undefined ? undefined : service.telemetry.pending(serial);
          },
        }
      : {}),
  };
}

export function deviceEnvironmentRules(service: DeviceService): EnvironmentRule[] {
  const touches = new Set(['ui_tap', 'ui_swipe', 'input_text']);
  return [
    rule(
      'device-offline',
      (tool) => DEVICE_TOOL_IDS.has(tool.id),
      (read, serial) =>
        read(telemetryKey(serial, 'online')) === false
          ? {
              message: `device ${serial} is offline or disconnected`,
              hint: offlineHint(serial),
              // As the tool answers adb's "device offline" (manager/device-errors.ts): a person's step.
              code: 'UNSUPPORTED',
              data: { state: 'offline', step: 'reconnect' },
            }
          : undefined,
      service,
      // adb's device list, not the screen state: nothing to wait for.
      false,
    ),
    rule(
      'screen-off',
      (tool) => touches.has(tool.id),
      (read, serial) =>
        read(telemetryKey(serial, 'screenOn')) === false
          ? {
              message: `the screen of ${serial} is off, so touches and typing do nothing`,
              hint:
                'Wake the device first (shell_execute "input keyevent KEYCODE_WAKEUP"), unlock it if needed, ' +
                'then retry.',
            }
          : undefined,
      service,
    ),
    rule(
      'device-locked',
      (tool) => ['ui_tap', 'input_text', 'app_launch'].includes(tool.id),
      (read, serial) =>
        read(telemetryKey(serial, 'locked')) === true
          ? {
              message: `${serial} is locked (the lock screen shows), so apps do not get taps, typing or launches`,
              hint:
                'Unlock it first: ui_swipe up unlocks a phone without a PIN; a PIN, pattern or password is for ' +
                'the user to enter on the phone. Then retry.',
            }
          : undefined,
      service,
    ),
    rule(
      'keyboard-hidden',
      (tool) => tool.id === 'input_text',
      (read, serial) =>
        // A hardware keyboard types into a focused field without any soft keyboard showing.
        read(telemetryKey(serial, 'keyboardShown')) === false && read(telemetryKey(serial, 'hardwareKeyboard')) !== true
          ? {
              message: `no input field on ${serial} has the keyboard open, so the text would go nowhere`,
              hint: 'Open (tap) the input field first with ui_tap (find it with ui_dump), then retry input_text.',
            }
          : undefined,
      service,
    ),
  ];
}
