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
  // Both read the page as it is now; asking at once saves a round trip to the browser per snapshot.
  const [raw, secrets] = await Promise.all([
    page.ariaSnapshotJSON({ mode: 'ai', timeout: timeoutMs }) as Promise<unknown>,
    passwordValues(page),
  ]);
  const list = (Array.isArray(raw) ? raw : [raw]).filter(isAriaNode);
  if (secrets.size > 0) for (const node of list) maskSecrets(node, secrets);
  return list;
}

export const MASKED_VALUE = '(hidden password)';

/**
 * The values typed into password fields, in every frame and open shadow root. The accessibility
 * tree reports a textbox's value whatever its type, and a snapshot goes to the model; so these
 * values are replaced before anything is rendered.
 */
async function passwordValues(page: Page): Promise<Set<string>> {
  const inFrame = () => {
    const out: string[] = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const input of Array.from(root.querySelectorAll('input[type="password" i]'))) {
        const value = (input as HTMLInputElement).value;
        if (value) out.push(value);
      }
      for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot) visit(el.shadowRoot);
    };
    visit(document);
    return out;
  };
  const perFrame = await Promise.all(page.frames().map((frame) => frame.evaluate(inFrame).catch(() => [] as string[])));
  return new Set(perFrame.flat());
}

function maskSecrets(node: AriaJsonNode, secrets: ReadonlySet<string>): void {
  if (node.text !== undefined && secrets.has(node.text)) node.text = MASKED_VALUE;
  for (const child of node.children ?? []) if (typeof child !== 'string') maskSecrets(child, secrets);
}
