/** The identity hashes Android prints for its objects (`ActivityRecord{3d1c2f0 …}`): stable per name here. */
import type { VirtualPhone } from '../../phone';

export function hexId(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').slice(0, 7);
}

/** ActivityRecord.toString: `ActivityRecord{HASH u0 PKG/.Activity tTASK}`. */
export function activityRecord(phone: VirtualPhone): string {
  const fg = phone.foreground();
  const task = (phone.getPackage(fg.packageName)?.uid ?? 1000) % 1000;
  return `ActivityRecord{${hexId(fg.activity)} u0 ${phone.foregroundComponent()} t${task}}`;
}

/** WindowState.toString: `Window{HASH u0 PKG/full.Activity}`, or a system window by its title. */
export function windowName(phone: VirtualPhone): string {
  if (phone.conditions.locked) {
    const title = phone.profile.android.dumps === 'legacy' ? 'StatusBar' : 'NotificationShade';
    return `Window{${hexId(title)} u0 ${title}}`;
  }
  const fg = phone.foreground();
  return `Window{${hexId(`w${fg.activity}`)} u0 ${fg.packageName}/${fg.activity}}`;
}
