/** Builders for the few widget kinds the simulated apps use, so app files read like layouts. */
import { intersect, rect, type Rect, type UiNode } from '../ui';
import type { AppContext } from './app';

export const SCREEN_WIDTH = 720;
export const STATUS_BAR = 48;
export const TITLE_BOTTOM = 160;

function id(ctx: AppContext, name: string): string {
  return `${ctx.packageName}:id/${name}`;
}

export function titleBar(ctx: AppContext, title: string): UiNode {
  return {
    className: 'android.view.ViewGroup',
    packageName: ctx.packageName,
    resourceId: id(ctx, 'toolbar'),
    bounds: rect(0, STATUS_BAR, SCREEN_WIDTH, TITLE_BOTTOM),
    children: [textView(ctx, 'toolbar_title', title, rect(32, 72, 688, 136))],
  };
}

export function textView(
  ctx: AppContext,
  name: string | null,
  text: string,
  bounds: Rect,
  extra: Partial<UiNode> = {},
): UiNode {
  return {
    className: 'android.widget.TextView',
    packageName: ctx.packageName,
    ...(name ? { resourceId: id(ctx, name) } : {}),
    text,
    bounds,
    children: [],
    ...extra,
  };
}

export function button(
  ctx: AppContext,
  name: string,
  text: string,
  bounds: Rect,
  action: string,
  extra: Partial<UiNode> = {},
): UiNode {
  return {
    className: 'android.widget.Button',
    packageName: ctx.packageName,
    resourceId: id(ctx, name),
    text,
    bounds,
    clickable: true,
    focusable: true,
    action,
    children: [],
    ...extra,
  };
}

export function editText(
  ctx: AppContext,
  name: string,
  bounds: Rect,
  options: { hint?: string; password?: boolean } = {},
): UiNode {
  const resourceId = id(ctx, name);
  const value = ctx.field(resourceId);
  return {
    className: 'android.widget.EditText',
    packageName: ctx.packageName,
    resourceId,
    // Like Android 8+, an empty field reports its hint as text.
    text: options.password ? '•'.repeat(value.length) : value || (options.hint ?? ''),
    bounds,
    clickable: true,
    focusable: true,
    focused: ctx.isFocused(resourceId),
    longClickable: true,
    password: options.password ?? false,
    editable: true,
    children: [],
  };
}

export function checkBox(
  ctx: AppContext,
  name: string,
  text: string,
  checked: boolean,
  bounds: Rect,
  action: string,
): UiNode {
  return {
    className: 'android.widget.CheckBox',
    packageName: ctx.packageName,
    resourceId: id(ctx, name),
    text,
    bounds,
    checkable: true,
    checked,
    clickable: true,
    focusable: true,
    action,
    children: [],
  };
}

export function switchRow(
  ctx: AppContext,
  name: string,
  text: string,
  checked: boolean,
  bounds: Rect,
  action: string,
): UiNode {
  return { ...checkBox(ctx, name, text, checked, bounds, action), className: 'android.widget.Switch' };
}

/**
 * A vertically scrolling list. Rows are laid out from the list's top minus the scroll offset;
 * rows outside the viewport are dropped and partly visible ones clipped, as uiautomator reports.
 */
export function scrollList(
  ctx: AppContext,
  name: string,
  bounds: Rect,
  rowHeight: number,
  rows: ((r: Rect) => UiNode)[],
): UiNode {
  const resourceId = id(ctx, name);
  const offset = ctx.scroll(resourceId);
  const children: UiNode[] = [];
  rows.forEach((build, i) => {
    const top = bounds.top + i * rowHeight - offset;
    const full = rect(bounds.left, top, bounds.right, top + rowHeight);
    const visible = intersect(full, bounds);
    if (!visible) return;
    const row = build(full);
    children.push(clip(row, bounds));
  });
  return {
    className: 'androidx.recyclerview.widget.RecyclerView',
    packageName: ctx.packageName,
    resourceId,
    bounds,
    scrollable: rows.length * rowHeight > bounds.bottom - bounds.top,
    focusable: true,
    scrollExtent: rows.length * rowHeight,
    children,
  };
}

function clip(node: UiNode, to: Rect): UiNode {
  const bounds = intersect(node.bounds, to) ?? rect(to.left, to.top, to.left, to.top);
  return { ...node, bounds, children: node.children.filter((c) => intersect(c.bounds, to)).map((c) => clip(c, to)) };
}
