/**
 * Which window has the focus, as WindowManager says (`mCurrentFocus=Window{HASH u0 PKG/ACTIVITY}`,
 * or `null`, in `dumpsys window windows`: AOSP WindowManagerService.dumpWindowsNoHeaderLocked). The
 * hash is the window's own: another activity, a dialog's window, the keyguard or the notification
 * shade, or the same activity started again, each reads as a different focus. A dump records it, so
 * a tap by one of its refs can tell, with one cheap read, that the screen moved on without Toolgate.
 */
export const FOCUS_COMMAND = "dumpsys window windows | grep -E '^  mCurrentFocus='";

/** The focused window's description; undefined when the output has no such line. */
export function parseFocus(output: string): string | undefined {
  return /^ {2}mCurrentFocus=(\S[^\r\n]*)$/m.exec(output)?.[1]?.trim();
}
