/**
 * uiautomator's XML as a compact text a model reads in few tokens: one line per meaningful
 * element with a ref (`e7`) that ui_tap and ui_swipe accept, the class short name, text and
 * description, the resource-id tail, the centre of its bounds and its states. Layout nodes with
 * nothing to show or do are skipped (their children move up). The dumps of each device are kept for
 * the tap tools (UiRefStore), with when each was taken: a ref belongs to its dump, and is never
 * given to another element of the device later.
 */
import { XMLParser } from 'fast-xml-parser';
import { scanDumpXml } from './dump-scanner';

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface UiElement {
  ref: string;
  depth: number;
  className: string;
  text: string;
  description: string;
  /** The part of the resource id after `:id/`. */
  id: string;
  packageName: string;
  bounds: Bounds;
  center: { x: number; y: number };
  states: string[];
}

export interface UiSnapshot {
  serial: string;
  elements: UiElement[];
  /** The display's size (`wm size`, turned with the dump's rotation); undefined when unknown. */
  screen: { width: number; height: number } | undefined;
  /** Bounds of the root node: the active window, which may exclude the navigation bar or be a dialog. */
  window: Bounds | undefined;
  /** `<hierarchy rotation="N">`: 0 natural, 1 = 90°, 2, 3. */
  rotation: number;
  packageName: string | undefined;
  /** The keyguard shows (the phone is locked); undefined when not read. */
  locked?: boolean;
  /** The focused window when the dump was taken (window-focus.ts); undefined when not read. */
  focus?: string;
  at: number;
}

interface XmlNode {
  node?: XmlNode[];
  [attribute: string]: unknown;
}

/** How the general parser reads a dump: attribute values as written, `node` always a list. */
export const DUMP_PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name: string) => name === 'node',
  parseAttributeValue: false,
  // Entities are decoded by `xmlText`, for the attributes read, in one pass.
  processEntities: false,
} as const;

const parser = new XMLParser(DUMP_PARSER_OPTIONS);

const XML_ENTITY = /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * An attribute's text with XML's references decoded: the five named ones and character references
 * (Android's XmlSerializer writes line breaks and tabs as `&#10;`). One pass, so `&amp;#10;` stays
 * the text "&#10;". What a dump cannot hold (a named HTML entity) is left as written. Written here:
 * fast-xml-parser's own pass tries each of its HTML entities on every attribute of every node, which
 * doubled the parse of a dump.
 */
function xmlText(value: unknown): string {
  const text = String(value ?? '');
  if (!text.includes('&')) return text;
  return text.replace(XML_ENTITY, (whole, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name]!;
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function parseBounds(text: unknown): Bounds | undefined {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(String(text ?? ''));
  return m ? { left: +m[1]!, top: +m[2]!, right: +m[3]!, bottom: +m[4]! } : undefined;
}

const STATE_FLAGS: [string, string][] = [
  ['clickable', 'clickable'],
  ['long-clickable', 'long-clickable'],
  ['scrollable', 'scrollable'],
  ['focused', 'focused'],
  ['selected', 'selected'],
  ['password', 'password'],
];

function statesOf(n: XmlNode): string[] {
  const states = STATE_FLAGS.filter(([attr]) => n[attr] === 'true').map(([, name]) => name);
  if (n.checkable === 'true') states.push(n.checked === 'true' ? 'checked' : 'unchecked');
  if (n.enabled === 'false') states.push('disabled');
  return states;
}

/** The XML of a `uiautomator dump /dev/tty` output (followed by its "dumped to" line), or undefined. */
export function dumpXml(raw: string): string | undefined {
  const start = raw.indexOf('<?xml') >= 0 ? raw.indexOf('<?xml') : raw.indexOf('<hierarchy');
  const end = raw.lastIndexOf('</hierarchy>');
  return start < 0 || end < 0 ? undefined : raw.slice(start, end + '</hierarchy>'.length);
}

/**
 * Parses `uiautomator dump` output. The screen size is the display's when given (`wm size`);
 * otherwise, for lack of better, the root window's bounds.
 */
export function parseUiDump(
  serial: string,
  raw: string,
  at: number,
  display?: { width: number; height: number },
): UiSnapshot {
  const xml = dumpXml(raw);
  if (!xml) throw new Error('no <hierarchy> in the dump');
  // The quick reader for uiautomator's own shape; anything else, the general parser (dump-scanner.ts).
  const doc = scanDumpXml(xml) ?? (parser.parse(xml) as { hierarchy?: XmlNode });
  const roots = doc.hierarchy?.node ?? [];
  const rotation = Number(doc.hierarchy?.rotation ?? 0) || 0;
  const elements: UiElement[] = [];
  let window: Bounds | undefined;
  const visit = (n: XmlNode, depth: number) => {
    const bounds = parseBounds(n.bounds);
    if (bounds && window === undefined) window = bounds;
    const text = xmlText(n.text);
    const description = xmlText(n['content-desc']);
    const resourceId = xmlText(n['resource-id']);
    const states = statesOf(n);
    const meaningful = text !== '' || description !== '' || resourceId !== '' || states.some((s) => s !== 'disabled');
    let childDepth = depth;
    if (meaningful && bounds) {
      elements.push({
        ref: `e${elements.length + 1}`,
        depth,
        className: xmlText(n.class).replace(/^.*\./, ''),
        text,
        description,
        id: resourceId.replace(/^.*:id\//, ''),
        packageName: xmlText(n.package),
        bounds,
        center: { x: Math.round((bounds.left + bounds.right) / 2), y: Math.round((bounds.top + bounds.bottom) / 2) },
        states,
      });
      childDepth = depth + 1;
    }
    for (const child of n.node ?? []) visit(child, childDepth);
  };
  for (const root of roots) visit(root, 0);
  const turned = display && rotation % 2 === 1 ? { width: display.height, height: display.width } : display;
  const fromWindow = window ? { width: window.right, height: window.bottom } : undefined;
  return {
    serial,
    elements,
    screen: turned ?? fromWindow,
    window,
    rotation,
    packageName: roots[0] ? xmlText(roots[0].package) || undefined : undefined,
    at,
  };
}

function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** One element as a line, e.g. `e3 Button "Save" id=save_button @360,412 clickable`. */
export function elementLine(e: UiElement): string {
  const parts = [e.ref, e.className || 'View'];
  if (e.text) parts.push(JSON.stringify(clip(e.text)));
  if (e.description && e.description !== e.text) parts.push(`desc=${JSON.stringify(clip(e.description))}`);
  if (e.id) parts.push(`id=${e.id}`);
  parts.push(`@${e.center.x},${e.center.y}`);
  parts.push(...e.states);
  return `${'  '.repeat(Math.min(e.depth, 8))}${parts.join(' ')}`;
}

export function renderSnapshot(s: UiSnapshot): string {
  const size = s.screen ? ` (${s.screen.width}x${s.screen.height})` : '';
  const head =
    `${s.packageName ?? 'unknown app'} on ${s.serial}${size}: ${s.elements.length} element(s). ` +
    'Tap one with ui_tap {"ref": "eN"}.';
  const locked = s.locked
    ? [
        'The phone is locked: this is the lock screen. ' +
          'Unlock it (ui_swipe up, or ask the user to enter the PIN) before using apps.',
      ]
    : [];
  return [head, ...locked, ...s.elements.map(elementLine)].join('\n');
}

/**
 * Whether `candidate` (from a fresh dump) is verifiably the element `old` (from an earlier one):
 * the same class, resource id and bounds, and the same text or, when it has one, description. An
 * element known by neither (no text, no description) must keep both empty: a changed description is
 * a changed element even when neither had text.
 */
export function sameElement(old: UiElement, candidate: UiElement): boolean {
  const b = old.bounds;
  const c = candidate.bounds;
  if (old.className !== candidate.className || old.id !== candidate.id) return false;
  if (b.left !== c.left || b.top !== c.top || b.right !== c.right || b.bottom !== c.bottom) return false;
  if (old.description !== '' && old.description === candidate.description) return true;
  return old.text === candidate.text && (old.text !== '' || old.description === candidate.description);
}

/** How many dumps per device are kept after the latest, so a ref from one of them can still be checked. */
export const KEPT_DUMPS = 8;

const boundsKey = (b: Bounds) => `${b.left},${b.top},${b.right},${b.bottom}`;

/** What a ref names: the element as its dump showed it, and whether that dump is the device's latest. */
export interface RefLookup {
  element: UiElement;
  latest: boolean;
}

/**
 * The dumps of each device, so a ref means one element for good. An element verifiably the same as
 * one in the device's previous dump (sameElement) keeps that one's ref; every other element gets a
 * ref this device never had, so a ref from an older dump can never name something else on a newer
 * one (e3 of a dump before the screen changed is not the e3 of the dump after it). Refs of the last
 * KEPT_DUMPS dumps before the latest are kept, for the tap tools to check against a fresh dump.
 */
export class UiRefStore {
  private readonly devices = new Map<string, { dumps: UiSnapshot[]; next: number }>();

  /** Keeps a dump and returns it with its refs (parseUiDump numbers a dump's elements on their own). */
  set(snapshot: UiSnapshot): UiSnapshot {
    const known = this.devices.get(snapshot.serial) ?? { dumps: [], next: 1 };
    const previous = new Map<string, UiElement[]>();
    for (const e of known.dumps[0]?.elements ?? []) {
      const key = boundsKey(e.bounds);
      previous.set(key, [...(previous.get(key) ?? []), e]);
    }
    const taken = new Set<string>();
    const elements = snapshot.elements.map((e) => {
      const same = previous.get(boundsKey(e.bounds))?.find((p) => !taken.has(p.ref) && sameElement(p, e));
      const ref = same?.ref ?? `e${known.next++}`;
      taken.add(ref);
      return { ...e, ref };
    });
    const stored = { ...snapshot, elements };
    known.dumps = [stored, ...known.dumps].slice(0, KEPT_DUMPS + 1);
    this.devices.set(snapshot.serial, known);
    return stored;
  }

  /** The device's latest dump. */
  snapshot(serial: string): UiSnapshot | undefined {
    return this.devices.get(serial)?.dumps[0];
  }

  /** The element a ref names, from the newest kept dump that has it. */
  lookup(serial: string, ref: string): RefLookup | undefined {
    const dumps = this.devices.get(serial)?.dumps ?? [];
    for (const [i, dump] of dumps.entries()) {
      const element = dump.elements.find((e) => e.ref === ref);
      if (element) return { element, latest: i === 0 };
    }
    return undefined;
  }
}
