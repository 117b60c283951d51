/** Apps that arrive by `pm install`, and apps without any screen (the ADB keyboard). */
import { rect, type UiNode } from '../ui';
import type { AppContext, AppInfo, VirtualApp } from './app';
import { TITLE_BOTTOM, button, textView, titleBar } from './widgets';

export function createInstalledApp(info: AppInfo): VirtualApp {
  let taps = 0;
  return {
    info,
    render(ctx: AppContext): UiNode[] {
      return [
        titleBar(ctx, info.label),
        textView(
          ctx,
          'message',
          `Hello from ${info.packageName}`,
          rect(32, TITLE_BOTTOM + 40, 688, TITLE_BOTTOM + 110),
        ),
        textView(ctx, 'tap_count', `Taps: ${taps}`, rect(32, TITLE_BOTTOM + 120, 688, TITLE_BOTTOM + 190)),
        button(ctx, 'ok_button', 'OK', rect(32, TITLE_BOTTOM + 220, 688, TITLE_BOTTOM + 316), 'ok'),
      ];
    },
    onAction(action: string) {
      if (action === 'ok') taps++;
    },
    clearData() {
      taps = 0;
    },
  };
}

/** ADBKeyboard (com.android.adbkeyboard): an input method that receives text by broadcast. */
export function createAdbKeyboard(): VirtualApp {
  return {
    info: {
      packageName: 'com.android.adbkeyboard',
      label: 'ADB Keyboard',
      system: false,
      versionName: '2.0',
      versionCode: 20,
      activities: [],
      launchable: false,
    },
    render: () => [],
    onAction() {},
    clearData() {},
  };
}
