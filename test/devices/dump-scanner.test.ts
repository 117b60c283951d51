/**
 * Rule: the quick reader of uiautomator dumps (dump-scanner.ts) builds exactly the tree
 * fast-xml-parser builds, for every screen of every app on every device profile and for what
 * AOSP's XmlSerializer may write (escaped values, `>` inside a value); for anything else it
 * answers undefined, and ui_dump then reads the dump with the general parser, to the same result.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { scanDumpXml } from '../../tools/devices/tools/dump-scanner';
import { DUMP_PARSER_OPTIONS, parseUiDump } from '../../tools/devices/tools/ui-tree';
import { VirtualPhone } from '../../tools/devices/virtual';
import { PROFILES } from '../../tools/devices/virtual/profiles';

/** The general parser as ui-tree.ts sets it up. */
const general = new XMLParser(DUMP_PARSER_OPTIONS);

const HEAD = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>";
const leaf = (attributes: string) =>
  `<node index="0" ${attributes} class="android.widget.TextView" package="p.q" bounds="[0,0][10,10]" />`;

interface Tree {
  node?: Tree[];
  text?: string;
}

/** The non-empty texts of the nodes in a parsed tree, in document order. */
function textsOf(tree: Tree | undefined): string[] {
  const own = tree?.text ? [tree.text] : [];
  return [...own, ...(tree?.node ?? []).flatMap(textsOf)];
}

/** Every app's first screen on each profile's phone, and its home screen and lock screen. */
function profileDumps(): Array<[string, string]> {
  const dumps: Array<[string, string]> = [];
  for (const profile of Object.keys(PROFILES) as Array<keyof typeof PROFILES>) {
    const phone = new VirtualPhone({ serial: '127.0.0.1:5555', profile });
    dumps.push([`${profile} as it starts`, phone.hierarchyXml()]);
    phone.dismissKeyguard();
    for (const pkg of phone.listPackages()) {
      if (!phone.launchApp(pkg.info.packageName)) continue;
      dumps.push([`${profile} ${pkg.info.packageName}`, phone.hierarchyXml()]);
    }
    phone.goHome();
    dumps.push([`${profile} home`, phone.hierarchyXml()]);
  }
  return dumps;
}

describe('the quick reader of uiautomator dumps', () => {
  it("reads every profile's dumps exactly as the general parser does", () => {
    const dumps = profileDumps();
    expect(dumps.length).toBeGreaterThan(20);
    for (const [what, xml] of dumps) {
      const scanned = scanDumpXml(xml);
      expect({ what, read: scanned !== undefined }).toEqual({ what, read: true });
      expect(scanned?.hierarchy).toEqual(general.parse(xml).hierarchy);
    }
  });

  it('keeps escaped values as written, and reads `>` inside a value and spacing the serializer may add', () => {
    const xml =
      `${HEAD}\n<hierarchy rotation="1">\n  <node text="a &gt; b &amp; &quot;c&quot;" content-desc="x > y" ` +
      'resource-id=\'p.q:id/single\' hint="&#10;" bounds="[0,0][9,9]">\n    ' +
      leaf('text="inner"') +
      '\n  </node>\n</hierarchy>';
    const scanned = scanDumpXml(xml);
    expect(scanned?.hierarchy).toEqual(general.parse(xml).hierarchy);
    expect(scanned?.hierarchy.node?.[0]).toMatchObject({
      text: 'a &gt; b &amp; &quot;c&quot;',
      'content-desc': 'x > y',
    });
  });

  it('reads the attributes newer dumpers add, and the NAF mark, like any other', () => {
    // Newer versions of AOSP's AccessibilityNodeInfoDumper add attributes such as `drawing-order`, `hint` and
    // `display-id`, and every version marks NAF="true" on a node that can be acted on but has no text or name.
    const xml =
      `${HEAD}<hierarchy rotation="0">` +
      leaf('NAF="true" text="" drawing-order="3" hint="Search" display-id="0" clickable="true"') +
      '</hierarchy>';
    const scanned = scanDumpXml(xml);
    expect(scanned?.hierarchy).toEqual(general.parse(xml).hierarchy);
    expect(scanned?.hierarchy.node?.[0]).toMatchObject({ NAF: 'true', 'drawing-order': '3', 'display-id': '0' });
  });

  it('answers undefined for anything uiautomator does not write, and ui_dump reads it with the general parser', () => {
    const others: Array<[string, string]> = [
      ['text between tags', `${HEAD}<hierarchy rotation="0">hello${leaf('text="a"')}</hierarchy>`],
      ['a comment', `${HEAD}<hierarchy rotation="0"><!-- x -->${leaf('text="a"')}</hierarchy>`],
      ['CDATA', `${HEAD}<hierarchy rotation="0"><![CDATA[x]]>${leaf('text="a"')}</hierarchy>`],
      ['another element', `${HEAD}<hierarchy rotation="0"><window>${leaf('text="a"')}</window></hierarchy>`],
      ['a raw < in a value', `${HEAD}<hierarchy rotation="0">${leaf('text="a < b"')}</hierarchy>`],
      ['a value without quotes', `${HEAD}<hierarchy rotation="0"><node text=a bounds="[0,0][1,1]"/></hierarchy>`],
      ['a repeated attribute', `${HEAD}<hierarchy rotation="0">${leaf('text="a" text="b"')}</hierarchy>`],
      [
        'a closing tag that does not match',
        `${HEAD}<hierarchy rotation="0"><node text="a" bounds="[0,0][1,1]"></hierarchy>`,
      ],
      ['two roots', `${HEAD}<hierarchy rotation="0"></hierarchy><hierarchy rotation="0"></hierarchy>`],
    ];
    for (const [what, xml] of others) {
      expect({ what, scanned: scanDumpXml(xml) }).toEqual({ what, scanned: undefined });
      // ui_dump finds the elements the general parser's tree holds (or fails where it fails).
      const fromGeneral = (() => {
        try {
          return textsOf((general.parse(xml) as { hierarchy?: Tree }).hierarchy);
        } catch {
          return 'the parser throws';
        }
      })();
      const fromDump = (() => {
        try {
          return parseUiDump('S', xml, 0).elements.map((e) => e.text);
        } catch {
          return 'the parser throws';
        }
      })();
      expect({ what, elements: fromDump }).toEqual({ what, elements: fromGeneral });
    }
  });
});
