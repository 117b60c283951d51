/** The home screen: one icon per launchable app, four to a row. Tapping an icon launches it. */
import { rect, type UiNode } from '../ui';
import type { AppContext, VirtualApp } from './app';
import { STATUS_BAR, textView } from './widgets';

export const LAUNCHER_PACKAGE = 'com.android.launcher3';

const COLUMNS = 4;
const CELL_W = 180;
const CELL_H = 200;
const GRID_TOP = STATUS_BAR + 120;

export function createLauncher(): VirtualApp {
  return {
    info: {
      packageName: LAUNCHER_PACKAGE,
      label: 'Launcher',
      system: true,
      versionName: '13',
      versionCode: 33,
      activities: [`${LAUNCHER_PACKAGE}.Launcher`],
      launchable: false,
      filters: [
        {
          activity: `${LAUNCHER_PACKAGE}.Launcher`,
          actions: ['android.intent.action.MAIN'],
          categories: ['android.intent.category.HOME', 'android.intent.category.DEFAULT'],
        },
      ],
    },
    render(ctx: AppContext): UiNode[] {
      const apps = ctx.services.launchable();
      const icons = apps.map((app, i) => {
        const left = (i % COLUMNS) * CELL_W;
        const top = GRID_TOP + Math.floor(i / COLUMNS) * CELL_H;
        return textView(ctx, 'icon', app.label, rect(left + 10, top + 10, left + CELL_W - 10, top + CELL_H - 10), {
          contentDesc: app.label,
          clickable: true,
          focusable: true,
          longClickable: true,
          action: `launch:${app.packageName}`,
        });
      });
      return [
        {
          className: 'android.view.ViewGroup',
          packageName: LAUNCHER_PACKAGE,
          resourceId: `${LAUNCHER_PACKAGE}:id/workspace`,
          bounds: rect(0, STATUS_BAR, ctx.screen.width, ctx.screen.height),
          children: icons,
        },
      ];
    },
    // `launch:` actions are handled by the phone, which owns the task stack.
    onAction() {},
    clearData() {},
  };
}
