// Rule guarded: the document tools (text_diff, json_path, xml_extract, csv_query) answer from the
// data given, never run code from it (JSONPath scripts, XML entity expansion), explain bad input
// with the field to fix, and are stopped at their bound in a CPU worker when a query runs too long.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { structuredTools } from '../../tools/structured';
import { harness } from './harness';

const root = mkdtempSync(join(tmpdir(), 'toolgate-structured-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const h = harness(structuredTools({ workspaceRoot: root }));

describe('text_diff', () => {
  it('refuses texts above the size bound and missing arguments', async () => {
    await h.fails('text_diff', { oldText: 'x'.repeat(1_000_001), newText: '' }, 'INVALID_ARGUMENT');
    await h.fails('text_diff', { oldText: 'a' }, 'INVALID_ARGUMENT');
  });
  it('returns a unified diff with line statistics', async () => {
    const r = await h.ok<{ diff: string; added: number; removed: number; hunks: number; identical: boolean }>(
      'text_diff',
      {
        oldText: 'a\nb\nc\n',
        newText: 'a\nB\nc\nd\n',
        oldName: 'v1.txt',
        newName: 'v2.txt',
      },
    );
    expect(r).toMatchObject({ identical: false, added: 2, removed: 1, hunks: 1 });
    expect(r.diff).toBe('--- v1.txt\n+++ v2.txt\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n');
  });
  it('says texts are identical, also when only leading or trailing whitespace differs, ignored', async () => {
    expect(await h.ok('text_diff', { oldText: 'same', newText: 'same' })).toMatchObject({ identical: true, diff: '' });
    expect(await h.ok('text_diff', { oldText: '  a b  \n', newText: 'a b\n', ignoreWhitespace: true })).toMatchObject({
      identical: true,
    });
  });
});

describe('json_path', () => {
  const json = JSON.stringify({
    store: {
      book: [
        { title: 'A', price: 5 },
        { title: 'B', price: 15 },
      ],
    },
  });
  it('refuses filter and script expressions, since scripts never run', async () => {
    for (const path of [
      '$..book[?(@.price < 10)]',
      '$..book[(@.length-1)]',
      "$..book[?(@.constructor.constructor('return process')())]",
    ]) {
      const e = await h.fails('json_path', { json, path }, 'INVALID_ARGUMENT');
      expect(e.hint).toMatch(/disabled/);
    }
  });
  it('refuses invalid JSON and ambiguous input', async () => {
    const e = await h.fails('json_path', { json: '{bad', path: '$' }, 'INVALID_ARGUMENT');
    expect(e.data?.fields).toEqual(['json']);
    await h.fails('json_path', { path: '$' }, 'INVALID_ARGUMENT');
    await h.fails('json_path', { json: '{}', data: {}, path: '$' }, 'INVALID_ARGUMENT');
  });
  it('selects values with their paths and JSON pointers', async () => {
    const r = await h.ok<{ count: number; matches: unknown[] }>('json_path', { json, path: '$.store.book[*].title' });
    expect(r.matches).toEqual([
      { path: "$['store']['book'][0]['title']", pointer: '/store/book/0/title', value: 'A' },
      { path: "$['store']['book'][1]['title']", pointer: '/store/book/1/title', value: 'B' },
    ]);
  });
  it('accepts a parsed value, recursive descent, slices and limits', async () => {
    const data = JSON.parse(json) as unknown;
    expect(await h.ok('json_path', { data, path: '$..price' })).toMatchObject({ count: 2 });
    expect(await h.ok('json_path', { data, path: '$.store.book[0:1].title' })).toMatchObject({ count: 1 });
    expect(await h.ok('json_path', { data, path: '$..*', maxResults: 2 })).toMatchObject({ count: 2, truncated: true });
    expect(await h.ok('json_path', { data, path: '$.nothing' })).toMatchObject({ count: 0 });
  });
  it('does not reach inherited properties', async () => {
    expect(await h.ok('json_path', { json: '{}', path: '$.constructor' })).toMatchObject({ count: 0 });
  });
});

describe('xml_extract', () => {
  const xml =
    '<?xml version="1.0"?><catalog><book id="b1"><title lang="en">A</title></book><book id="b2"><title>B &amp; C ' +
    '&#65;</title></book></catalog>';
  it('refuses DTD entity declarations (billion laughs) before parsing', async () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 ' +
      '"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>';
    const e = await h.fails('xml_extract', { xml: bomb, xpath: '//lolz' }, 'INVALID_ARGUMENT');
    expect(e.message).toMatch(/entity/);
    await h.fails(
      'xml_extract',
      { xml: '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>', xpath: 'x' },
      'INVALID_ARGUMENT',
    );
  });
  it('refuses malformed XML with the position', async () => {
    const e = await h.fails('xml_extract', { xml: '<a><b></a>', xpath: 'a' }, 'INVALID_ARGUMENT');
    expect(e.message).toMatch(/line 1, column \d+/);
  });
  it('refuses XPath outside the supported subset, naming it', async () => {
    for (const xpath of ['//book[', '@id/x', '//book[0]', '/', 'count(//book)', '//book[position()>1]']) {
      const e = await h.fails('xml_extract', { xml, xpath }, 'INVALID_ARGUMENT');
      expect(e.data?.fields, xpath).toEqual(['xpath']);
    }
  });
  it('selects elements by path, attribute predicate and position', async () => {
    expect(await h.ok('xml_extract', { xml, xpath: "//book[@id='b2']/title" })).toMatchObject({
      kind: 'element',
      matches: [{ name: 'title', text: 'B & C A' }],
    });
    expect(await h.ok('xml_extract', { xml, xpath: '/catalog/book[1]/title' })).toMatchObject({
      matches: [{ attributes: { lang: 'en' }, text: 'A' }],
    });
    expect(await h.ok('xml_extract', { xml, xpath: '/catalog/book[last()]' })).toMatchObject({
      matches: [{ attributes: { id: 'b2' } }],
    });
    expect(await h.ok('xml_extract', { xml, xpath: "book[title='A']" })).toMatchObject({ count: 1 });
  });
  it('selects attributes and text', async () => {
    expect(await h.ok('xml_extract', { xml, xpath: '//book/@id' })).toMatchObject({
      kind: 'attribute',
      matches: [{ value: 'b1' }, { value: 'b2' }],
    });
    expect(await h.ok('xml_extract', { xml, xpath: '//title/text()' })).toMatchObject({
      kind: 'text',
      matches: ['A', 'B & C A'],
    });
  });
  it('reads a workspace file and strips namespace prefixes on request', async () => {
    writeFileSync(join(root, 'feed.xml'), '<f:feed xmlns:f="urn:f"><f:entry>1</f:entry></f:feed>');
    expect(await h.ok('xml_extract', { file: 'feed.xml', xpath: '//f:entry' })).toMatchObject({ count: 1 });
    expect(
      await h.ok('xml_extract', { file: 'feed.xml', xpath: '/feed/entry', removeNamespacePrefix: true }),
    ).toMatchObject({ count: 1 });
  });
});

describe('csv_query', () => {
  const csv = 'name;age;city\nbob;30;Oslo\nann;25;Rome\ncid;41;oslo\n';
  it('refuses unknown columns, listing the real ones', async () => {
    const e = await h.fails('csv_query', { csv, select: ['nmae'] }, 'NOT_FOUND');
    expect(e.hint).toMatch(/name, age, city/);
    await h.fails('csv_query', { csv, where: [{ column: 'x', op: 'eq', value: 1 }] }, 'NOT_FOUND');
  });
  it('refuses a condition without a value, unclosed quotes, and missing input', async () => {
    await h.fails('csv_query', { csv, where: [{ column: 'age', op: 'gt' }] }, 'INVALID_ARGUMENT');
    await h.fails('csv_query', { csv: 'a,"b\n1,2' }, 'INVALID_ARGUMENT');
    await h.fails('csv_query', {}, 'INVALID_ARGUMENT');
    await h.fails('csv_query', { csv, where: [{ column: 'age', op: 'like', value: 1 }] }, 'INVALID_ARGUMENT');
  });
  it('stops a catastrophic regex condition at its bound instead of hanging', async () => {
    const e = await h.fails(
      'csv_query',
      { csv: `v\n${'a'.repeat(40)}!\n`, where: [{ column: 'v', op: 'matches', value: '(a+)+$' }] },
      'TIMEOUT',
    );
    expect(e.message).toBe(
      'csv_query ran past its 5 s bound and was stopped; query less data or use simpler "matches" patterns.',
    );
    expect(e.hint).toMatch(/without nested quantifiers/);
  });
  it('detects the delimiter and header, filters numerically and sorts', async () => {
    const r = await h.ok('csv_query', {
      csv,
      where: [{ column: 'age', op: 'gt', value: 26 }],
      sort: [{ column: 'age', order: 'desc' }],
      select: ['name', 'age'],
    });
    expect(r).toMatchObject({
      delimiter: ';',
      hasHeader: true,
      totalRows: 3,
      matchedRows: 2,
      rows: [
        { name: 'cid', age: '41' },
        { name: 'bob', age: '30' },
      ],
    });
  });
  it('matches text case-insensitively and pages with offset and limit', async () => {
    expect(
      await h.ok('csv_query', { csv, where: [{ column: 'city', op: 'eq', value: 'OSLO' }], ignoreCase: true }),
    ).toMatchObject({ matchedRows: 2 });
    expect(await h.ok('csv_query', { csv, sort: [{ column: 'name' }], offset: 1, limit: 1 })).toMatchObject({
      returned: 1,
      rows: [{ name: 'bob' }],
    });
  });
  it('names columns col1… when the first row is data', async () => {
    expect(await h.ok('csv_query', { csv: '1,2\n3,4\n' })).toMatchObject({
      hasHeader: false,
      columns: ['col1', 'col2'],
      rows: [
        { col1: '1', col2: '2' },
        { col1: '3', col2: '4' },
      ],
    });
  });
  it('reads a workspace file, and refuses one outside', async () => {
    writeFileSync(join(root, 'data.csv'), 'k,v\na,1\n');
    expect(await h.ok('csv_query', { file: 'data.csv' })).toMatchObject({ rows: [{ k: 'a', v: '1' }] });
    await h.fails('csv_query', { file: '../data.csv' }, 'PERMISSION_DENIED');
    await h.fails('csv_query', { file: 'missing.csv' }, 'NOT_FOUND');
  });
});
