/**
 * The display size `wm size` reports (WindowManagerShellCommand's `Physical size: WxH`, and
 * `Override size: WxH` after `wm size WxH`): the override when one is set, else the physical size.
 */
export function parseWmSize(output: string): { width: number; height: number } | undefined {
  const m = /Override size: (\d+)x(\d+)/.exec(output) ?? /Physical size: (\d+)x(\d+)/.exec(output);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}
