/**
 * Element refs (`e12`, `f1e3` inside an iframe) from the latest browser_snapshot, resolved with
 * Playwright's `aria-ref=` engine. A ref the latest snapshot does not know, or whose element left the
 * page, is NOT_FOUND with the instruction to take a new snapshot, never a 5-second wait.
 */
import type { Locator, Page } from 'playwright-core';
import { ToolCallError } from '../../core/result';
import type { RefInfo } from './compact-render';

const REF_PATTERN = /^(f\d+)?e\d+$/;

const seen = new WeakMap<Page, Map<string, RefInfo>>();

/** Accepts `e12`, `[e12]`, `ref=e12` and `[ref=e12]`, since models copy refs in all of these forms. */
export function normalizeRef(raw: string): string {
  const ref = raw
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/^ref=/, '')
    .trim();
  if (!REF_PATTERN.test(ref)) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `"${raw}" is not an element ref; refs look like e12 (or f1e3 inside an iframe).`,
      {
        hint: 'Copy a ref from the latest browser_snapshot output.',
        data: { fields: ['ref'] },
      },
    );
  }
  return ref;
}

export function rememberRefs(page: Page, refs: Map<string, RefInfo>): void {
  seen.set(page, refs);
}

/** `e12 (button "Save")` when the latest snapshot printed it, else just the ref. */
export function describeRef(page: Page, ref: string): string {
  const info = seen.get(page)?.get(ref);
  return info ? `${ref} (${info.role}${info.name ? ` "${info.name.slice(0, 80)}"` : ''})` : ref;
}

export function staleRef(ref: string): ToolCallError {
  return new ToolCallError(
    'NOT_FOUND',
    `Element ref ${ref} is not on the page any more, or is not from the ` +
      'latest snapshot (refs expire when the page changes or navigates).',
    {
      hint: 'Call browser_snapshot again and use a ref from its new output.',
      data: { ref },
    },
  );
}

export async function resolveRef(page: Page, raw: string): Promise<Locator> {
  const ref = normalizeRef(raw);
  const locator = page.locator(`aria-ref=${ref}`);
  let count: number;
  try {
    count = await locator.count();
  } catch {
    // An unknown frame prefix (f7e2 after the iframe went away) is an invalid selector to Playwright.
    throw staleRef(ref);
  }
  if (count === 0) throw staleRef(ref);
  return locator;
}

/** The normalised ref and its element, for tools that name the element in their answer. */
export async function resolveRefTarget(page: Page, raw: string): Promise<{ ref: string; target: Locator }> {
  const ref = normalizeRef(raw);
  return { ref, target: await resolveRef(page, ref) };
}
