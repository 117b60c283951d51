/**
 * The shape of Playwright's AI-mode ARIA snapshot as JSON (`ariaSnapshotJSON({ mode: 'ai' })`):
 * roles, names, states and `ref`s that `aria-ref=<ref>` selectors resolve against the latest
 * snapshot of the element's frame. Iframes are merged in, open shadow roots are walked.
 */
import type { Page } from 'playwright-core';

export interface AriaJsonNode {
  role: string;
  name?: string;
  ref?: string;
  text?: string;
  children?: Array<AriaJsonNode | string>;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  active?: boolean;
  invalid?: boolean | string;
  level?: number;
  pressed?: boolean | 'mixed';
  selected?: boolean;
  cursor?: string;
  url?: string;
  placeholder?: string;
}

export function isAriaNode(value: unknown): value is AriaJsonNode {
  return typeof value === 'object' && value !== null && typeof (value as { role?: unknown }).role === 'string';
}

/** Takes a fresh snapshot of the whole page; this also re-bases every ref of the page on it. */
export async function captureAriaJson(page: Page, timeoutMs: number): Promise<AriaJsonNode[]> {
  const raw: unknown = await page.ariaSnapshotJSON({ mode: 'ai', timeout: timeoutMs });
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter(isAriaNode);
}
