/** Settings: switches bound to real settings keys, and an "About phone" page built from getprop. */
import { rect, type Rect, type UiNode } from '../ui';
import type { AppContext, VirtualApp } from './app';
import { SCREEN_WIDTH, TITLE_BOTTOM, switchRow, textView, titleBar } from './widgets';

export const SETTINGS_PACKAGE = 'com.android.settings';
const MAIN = `${SETTINGS_PACKAGE}.Settings`;
const ABOUT = `${SETTINGS_PACKAGE}.SubSettings`;

function row(i: number): Rect {
  const top = TITLE_BOTTOM + 16 + i * 112;
  return rect(0, top, SCREEN_WIDTH, top + 104);
}

export function createSettingsApp(): VirtualApp {
  return {
    info: {
      packageName: SETTINGS_PACKAGE,
      label: 'Settings',
      system: true,
      versionName: '13',
      versionCode: 33,
      activities: [MAIN, ABOUT],
      launchable: true,
      filters: [
        { activity: MAIN, actions: ['android.settings.SETTINGS'], categories: ['android.intent.category.DEFAULT'] },
      ],
    },
    render(ctx: AppContext): UiNode[] {
      const s = ctx.services;
      if (ctx.activity === ABOUT) {
        const lines = [
          ['Model', s.props.get('ro.product.model') ?? ''],
          ['Android version', s.props.get('ro.build.version.release') ?? ''],
          ['Build number', s.props.get('ro.build.display.id') ?? ''],
        ];
        return [
          titleBar(ctx, 'About phone'),
          ...lines.map(([k, v], i) => textView(ctx, 'summary', `${k}: ${v}`, row(i))),
        ];
      }
      return [
        titleBar(ctx, 'Settings'),
        switchRow(ctx, 'wifi_switch', 'Wi-Fi', s.setting('global', 'wifi_on') === '1', row(0), 'toggle:global:wifi_on'),
        switchRow(
          ctx,
          'airplane_switch',
          'Airplane mode',
          s.setting('global', 'airplane_mode_on') === '1',
          row(1),
          'toggle:global:airplane_mode_on',
        ),
        switchRow(ctx, 'location_switch', 'Location', s.locationEnabled, row(2), 'location'),
        textView(ctx, 'brightness', `Brightness: ${s.setting('system', 'screen_brightness') ?? '?'}`, row(3)),
        textView(ctx, 'about', 'About phone', row(4), { clickable: true, focusable: true, action: 'about' }),
      ];
    },
    onAction(action: string, ctx: AppContext): void {
      const s = ctx.services;
      if (action.startsWith('toggle:')) {
        const [, ns, key] = action.split(':');
        if (ns !== 'global' || !key) return;
        s.settings.global.set(key, s.setting('global', key) === '1' ? '0' : '1');
      } else if (action === 'location') {
        s.locationEnabled = !s.locationEnabled;
        s.settings.secure.set('location_mode', s.locationEnabled ? '3' : '0');
      } else if (action === 'about') {
        ctx.startActivity(ABOUT);
      }
    },
    clearData() {},
  };
}
