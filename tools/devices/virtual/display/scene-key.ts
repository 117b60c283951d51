/**
 * What the phone's screen shows, as a string: equal keys render equal pixels (screen.ts draws the
 * foreground window's nodes, which its uiautomator XML describes, the keyboard, the clock's minute,
 * and black while asleep). The compositor renders again only when the key changes, or when its
 * picture is half a second old, in case something the key misses changed.
 */
import type { VirtualPhone } from '../phone';

export function sceneKey(phone: VirtualPhone): string {
  const now = new Date(phone.now());
  const minute = `${now.getUTCHours()}:${now.getUTCMinutes()}`;
  const { width, height } = phone.screen;
  return `${phone.awake}|${phone.keyboardShown}|${width}x${height}|${minute}|${phone.hierarchyXml()}`;
}
