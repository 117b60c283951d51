/**
 * Rule guarded: browser_snapshot's text is compact (layout wrappers, repeated labels and empty
 * notices dropped; a table row or a paragraph with links on one line) and never loses an
 * interactive element's ref, so every control stays addressable.
 */
import { describe, expect, it } from 'vitest';
import { renderCompact } from '../../tools/browser/snapshot/compact-render';
import type { AriaJsonNode } from '../../tools/browser/snapshot/aria-json';

const page = (...children: Array<AriaJsonNode | string>): AriaJsonNode[] => [{ role: 'generic', ref: 'e1', children }];

describe('renderCompact', () => {
  it('cuts the output at maxChars and says it did', () => {
    const rows = Array.from(
      { length: 200 },
      (_, i): AriaJsonNode => ({ role: 'button', name: `Button ${i}`, ref: `e${i + 2}` }),
    );
    const out = renderCompact(page(...rows), 500);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(500);
  });

  it('renders nothing for an empty page', () => {
    expect(renderCompact([]).text).toBe('');
  });

  it('drops unnamed layout wrappers and keeps interactive elements with their refs', () => {
    const out = renderCompact(
      page({
        role: 'generic',
        ref: 'e2',
        children: [{ role: 'generic', ref: 'e3', children: [{ role: 'button', name: 'Save', ref: 'e4' }] }],
      }),
    );
    expect(out.text).toBe('e4 button "Save"');
    expect(out.refs.get('e4')).toEqual({ role: 'button', name: 'Save' });
  });

  it('drops a label text that only repeats the name of the field next to it', () => {
    const out = renderCompact(
      page({ role: 'generic', ref: 'e2', children: ['Email *', { role: 'textbox', name: 'Email *', ref: 'e3' }] }),
    );
    expect(out.text).toBe('e3 textbox "Email *"');
  });

  it('shows states, values, placeholders and link targets on the element line', () => {
    const out = renderCompact(
      page(
        { role: 'checkbox', name: 'Agree', checked: true, ref: 'e2' },
        { role: 'textbox', name: 'City', text: 'Berlin', ref: 'e3' },
        { role: 'textbox', name: 'Search', placeholder: 'Type to search', ref: 'e4' },
        { role: 'button', name: 'Send', disabled: true, ref: 'e5' },
        { role: 'link', name: 'Docs', url: '/docs', cursor: 'pointer', ref: 'e6' },
      ),
    );
    expect(out.text.split('\n')).toEqual([
      'e2 checkbox "Agree" checked',
      'e3 textbox "City" = "Berlin"',
      'e4 textbox "Search" placeholder="Type to search"',
      'e5 button "Send" disabled',
      'e6 link "Docs" -> /docs',
    ]);
  });

  it('summarises a native select on one line with its selected value and options', () => {
    const select: AriaJsonNode = {
      role: 'combobox',
      name: 'Size',
      ref: 'e2',
      children: [
        { role: 'option', name: 'S' },
        { role: 'option', name: 'M', selected: true },
        { role: 'option', name: 'L' },
      ],
    };
    expect(renderCompact(page(select)).text).toBe('e2 combobox "Size" = "M" options: S | M | L');
  });

  it('puts a table row on one line with inline elements in brackets', () => {
    const row: AriaJsonNode = {
      role: 'row',
      ref: 'e4',
      children: [
        { role: 'cell', name: '1', ref: 'e5' },
        { role: 'cell', name: 'Alice', ref: 'e6' },
        { role: 'cell', ref: 'e7', children: [{ role: 'button', name: 'Edit', ref: 'e8' }] },
      ],
    };
    const out = renderCompact(
      page({ role: 'table', name: 'Users', ref: 'e2', children: [{ role: 'rowgroup', ref: 'e3', children: [row] }] }),
    );
    expect(out.text).toBe('e2 table "Users":\n 1 | Alice | [e8 button "Edit"]');
    expect(out.refs.has('e8')).toBe(true);
  });

  it('keeps a paragraph with a link on one line', () => {
    const out = renderCompact(
      page({
        role: 'paragraph',
        ref: 'e2',
        children: ['Read the', { role: 'link', name: 'guide', url: '/guide', ref: 'e3' }, 'first.'],
      }),
    );
    expect(out.text).toBe('Read the [e3 link "guide" -> /guide] first.');
  });

  it('indents the content of iframes, dialogs and landmarks under a header line', () => {
    const out = renderCompact(
      page(
        {
          role: 'navigation',
          name: 'Main',
          ref: 'e2',
          children: [{ role: 'link', name: 'Home', url: '/', ref: 'e3' }],
        },
        {
          role: 'iframe',
          ref: 'e4',
          children: [{ role: 'generic', ref: 'f1e1', children: [{ role: 'button', name: 'Inside', ref: 'f1e2' }] }],
        },
      ),
    );
    expect(out.text).toBe('e2 navigation "Main":\n e3 link "Home" -> /\ne4 iframe:\n f1e2 button "Inside"');
  });

  it('renders headings with their level and list items as dashes', () => {
    const out = renderCompact(
      page(
        { role: 'heading', name: 'Results', level: 2, ref: 'e2' },
        { role: 'list', ref: 'e3', children: [{ role: 'listitem', ref: 'e4', text: 'First' }] },
      ),
    );
    expect(out.text).toBe('## Results\n- First');
  });

  it('gives a ref to clickable elements without an interactive role (pointer cursor, summary)', () => {
    const out = renderCompact(
      page(
        { role: 'generic', ref: 'e2', cursor: 'pointer', text: 'Open card' },
        { role: 'group', ref: 'e3', children: [{ role: 'generic', name: 'Advanced', ref: 'e4' }] },
      ),
    );
    expect(out.text).toBe('e2 clickable "Open card"\ne4 clickable "Advanced"');
  });

  it('omits an empty status region', () => {
    expect(renderCompact(page({ role: 'status', ref: 'e2' }, { role: 'button', name: 'Go', ref: 'e3' })).text).toBe(
      'e3 button "Go"',
    );
  });
});
