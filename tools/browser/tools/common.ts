/** Argument pieces and result text shared by the browser tools. */
import type { Page } from 'playwright-core';
import { z } from 'zod';

export const refField = z
  .string()
  .min(1)
  .describe(
    'Element ref from the latest browser_snapshot output, e.g. "e12" ("f1e3" for an element inside an iframe). Refs expire when the page changes; take a new snapshot then.',
  );

/** `Now on "Title" (https://…)`, appended to action results so the model sees where it landed. */
export async function whereNow(page: Page): Promise<string> {
  const title = await page.title().catch(() => '');
  return `Now on ${title ? `${JSON.stringify(title)} ` : ''}(${page.url()}).`;
}
