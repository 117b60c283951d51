/**
 * The lock screen (System UI's keyguard): what uiautomator sees and taps hit while the phone is
 * locked. A swipe up dismisses an insecure keyguard; a secure one (PIN) stays until unlocked on the
 * phone itself, since Toolgate never types credentials.
 */
import { rect, type UiNode } from './ui';

export const SYSTEM_UI = 'com.android.systemui';

export function keyguardTree(width: number, height: number, clock: string, secure: boolean): UiNode {
  const node = (id: string, text: string, top: number, bottom: number): UiNode => ({
    className: 'android.widget.TextView',
    packageName: SYSTEM_UI,
    resourceId: `${SYSTEM_UI}:id/${id}`,
    text,
    bounds: rect(0, top, width, bottom),
    children: [],
  });
  return {
    className: 'android.widget.FrameLayout',
    packageName: SYSTEM_UI,
    resourceId: `${SYSTEM_UI}:id/notification_panel`,
    bounds: rect(0, 0, width, height),
    children: [
      node('keyguard_clock_container', clock, Math.round(height * 0.12), Math.round(height * 0.22)),
      node(
        'keyguard_indication_text',
        secure ? 'Swipe up to enter your PIN' : 'Swipe up to open',
        Math.round(height * 0.88),
        Math.round(height * 0.93),
      ),
    ],
  };
}
