/**
 * When a UI test fails, what its page showed: a screenshot in test-output/failures/ and the page's
 * text in the test's output (CI keeps the output of a failed run, not its files). Each harness's page
 * is registered here while it is open; vitest runs this file before every test file (setupFiles).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach } from 'vitest';

const FAILURES = resolve(__dirname, '../../../test-output/failures');

/** The pages of the UI harnesses that are open now. */
export const openPages = new Set<Page>();

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    for (const page of openPages) {
      mkdirSync(FAILURES, { recursive: true });
      const name = task.name.replace(/[^\w-]+/g, '-').slice(0, 100);
      await page.screenshot({ path: join(FAILURES, `${name}.png`), fullPage: true }).catch(() => undefined);
      const text = await page
        .locator('body')
        .innerText({ timeout: 2_000 })
        .catch((e: unknown) => `(no text: ${String(e)})`);
      console.error(`[what the page showed when "${task.name}" failed] ${page.url()}\n${text.slice(0, 4_000)}`);
    }
  });
});
