import type { Page } from 'playwright-core';

/** Controls with no accessible name: no label, aria-label(ledby), text or title. */
export function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = [
      ...document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex="0"]'),
    ];
    return controls
      .filter((el) => {
        const labelled = el
          .getAttribute('aria-labelledby')
          ?.split(' ')
          .some((id) => document.getElementById(id)?.textContent?.trim());
        const labels = (el as HTMLInputElement).labels;
        return !(
          el.getAttribute('aria-label')?.trim() ||
          labelled ||
          (labels && labels.length > 0) ||
          (el.tagName !== 'INPUT' && el.textContent?.trim()) ||
          el.title
        );
      })
      .map((el) => el.outerHTML.slice(0, 120));
  });
}
