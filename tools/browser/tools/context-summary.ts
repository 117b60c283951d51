/** browser_context_summary: where am I — title, URL, tabs, headings, forms and their fields, the start of the text. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { CONTEXT_SUMMARY } from '../page-scripts';

interface Field {
  kind: string;
  label: string;
  name: string;
  value?: string;
  checked?: boolean;
  required?: boolean;
  disabled?: boolean;
}

interface Summary {
  title: string;
  url: string;
  headings: Array<{ level: number; text: string }>;
  forms: Array<{ name: string; action: string; method: string; fields: Field[] }>;
  fieldsOutsideForms: Field[];
  text: string;
}

function fieldText(f: Field): string {
  const parts = [f.kind, f.label ? JSON.stringify(f.label) : '', f.name ? `name=${f.name}` : ''];
  if (f.checked !== undefined) parts.push(f.checked ? 'checked' : 'unchecked');
  if (f.value) parts.push(`= ${JSON.stringify(f.value)}`);
  if (f.required) parts.push('required');
  if (f.disabled) parts.push('disabled');
  return parts.filter(Boolean).join(' ');
}

const input = z.object({
  includeText: z.boolean().default(true).describe('Its first 600 characters.'),
});

export function browserContextSummary(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_context_summary',
    title: 'Summarise the browser state',
    description:
      "The tabs and the active page's title, URL, headings and forms: cheaper than browser_snapshot, without refs.",
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    target: () => 'page',
    async run({ args, page, deps: d }) {
      const summary = (await page.evaluate(CONTEXT_SUMMARY)) as Summary;
      const tabs = await d.manager.tabs();
      const lines = [`Title: ${JSON.stringify(summary.title)}`, `URL: ${summary.url}`];
      const tab = (t: (typeof tabs)[number]) =>
        `${t.index + 1}${t.active ? '*' : ''} ${JSON.stringify(t.title.slice(0, 60))} ${t.url}`;
      lines.push(`Tabs: ${tabs.map(tab).join(' | ')}`);
      if (summary.headings.length > 0)
        lines.push(`Headings: ${summary.headings.map((h) => `${'#'.repeat(h.level)} ${h.text}`).join(' / ')}`);
      summary.forms.forEach((form, i) => {
        const label = form.name ? JSON.stringify(form.name) : `#${i + 1}`;
        lines.push(`Form ${label} (${form.method.toUpperCase()} ${form.action || '(same page)'}):`);
        for (const f of form.fields) lines.push(`  ${fieldText(f)}`);
      });
      if (summary.fieldsOutsideForms.length > 0) {
        lines.push('Fields outside forms:');
        for (const f of summary.fieldsOutsideForms) lines.push(`  ${fieldText(f)}`);
      }
      if (args.includeText && summary.text) lines.push(`Text: ${summary.text}`);
      const structured = { ...summary, tabs, ...(args.includeText ? {} : { text: undefined }) };
      return success(lines.join('\n'), structured);
    },
  });
}
