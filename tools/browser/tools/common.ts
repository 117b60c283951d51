/** Argument pieces and result text shared by the browser tools. */
import type { Page } from 'playwright-core';
import { z } from 'zod';

export const refField = z.string().min(1).describe('From the latest browser_snapshot.');

/** `Now on "Title" (https://…)`, appended to action results so the model sees where it landed. */
export async function whereNow(page: Page): Promise<string> {
  const title = await page.title().catch(() => '');
  return `Now on ${title ? `${JSON.stringify(title)} ` : ''}(${page.url()}).`;
}
