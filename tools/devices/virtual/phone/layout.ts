/**
 * Apps lay out in a 720-wide space (the widgets' coordinates); the phone shows them scaled to the
 * active display, above its navigation bar. The scale is uniform, so on a wide display (an unfolded
 * foldable) the apps are letterboxed as unadapted phone apps are.
 */
import type { DisplaySpec } from '../profiles';
import { rect, type UiNode } from './ui';

export const LAYOUT_WIDTH = 720;
const LAYOUT_HEIGHT = 1280;

export interface ScreenLayout {
  /** Pixels of the display. */
  width: number;
  height: number;
  density: number;
  /** Pixels above the navigation bar. */
  contentHeight: number;
  /** Display pixels per layout unit. */
  scale: number;
  /** The space apps lay out in (layout units). */
  appScreen: { width: number; height: number };
}

export function screenLayout(display: DisplaySpec): ScreenLayout {
  const contentHeight = display.height - display.navBarPx;
  const scale = Math.min(display.width / LAYOUT_WIDTH, contentHeight / LAYOUT_HEIGHT);
  return {
    width: display.width,
    height: display.height,
    density: display.density,
    contentHeight,
    scale,
    appScreen: { width: Math.round(display.width / scale), height: Math.round(contentHeight / scale) },
  };
}

/** A node tree in layout units, in display pixels. */
export function scaleNode(node: UiNode, scale: number): UiNode {
  if (scale === 1) return node;
  const b = node.bounds;
  return {
    ...node,
    bounds: rect(
      Math.round(b.left * scale),
      Math.round(b.top * scale),
      Math.round(b.right * scale),
      Math.round(b.bottom * scale),
    ),
    children: node.children.map((c) => scaleNode(c, scale)),
  };
}
