/**
 * HTML → readable text for a model (html-to-text does the parsing and layout). Headings become
 * `#`-prefixed lines so the outline survives; links become numbered references `text[3]` with one
 * compact list of URLs at the end, instead of long URLs interrupting every sentence.
 */
import { type FormatCallback, htmlToText } from 'html-to-text';

export interface ReadablePage {
  title: string | undefined;
  text: string;
  /** Absolute http(s) URLs in order of first appearance; `[n]` in the text is links[n-1]. */
  links: string[];
}

const SKIPPED = ['script', 'style', 'noscript', 'template', 'svg', 'nav', 'iframe', 'button', 'img'];

export function htmlToReadable(html: string, baseUrl: URL): ReadablePage {
  const links: string[] = [];
  const numbers = new Map<string, number>();

  const heading: FormatCallback = (elem, walk, builder) => {
    const level = Number(elem.name?.slice(1)) || 1;
    builder.openBlock({ leadingLineBreaks: 2 });
    builder.addInline(`${'#'.repeat(level)} `, { noWordTransform: true });
    walk(elem.children ?? [], builder);
    builder.closeBlock({ trailingLineBreaks: 1 });
  };

  const link: FormatCallback = (elem, walk, builder) => {
    walk(elem.children ?? [], builder);
    const target = absoluteHttp(elem.attribs?.href, baseUrl);
    if (!target) return;
    let n = numbers.get(target);
    if (n === undefined) {
      links.push(target);
      n = links.length;
      numbers.set(target, n);
    }
    builder.addInline(`[${n}]`, { noWordTransform: true });
  };

  const text = htmlToText(html, {
    wordwrap: false,
    formatters: { toolgateHeading: heading, toolgateLink: link },
    selectors: [
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, format: 'toolgateHeading' })),
      { selector: 'a', format: 'toolgateLink' },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
      ...SKIPPED.map((selector) => ({ selector, format: 'skip' })),
    ],
  });
  return { title: pageTitle(html), text: text.trim(), links };
}

function absoluteHttp(href: string | undefined, base: URL): string | undefined {
  if (!href || href.startsWith('#')) return undefined;
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    // A link to another spot on the same page adds nothing a reader can follow.
    if (url.origin === base.origin && url.pathname === base.pathname && url.search === base.search && url.hash)
      return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

function pageTitle(html: string): string | undefined {
  const raw = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  if (!raw) return undefined;
  const text = htmlToText(raw, { wordwrap: false }).replace(/\s+/g, ' ').trim();
  return text || undefined;
}
