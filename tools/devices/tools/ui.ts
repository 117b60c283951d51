/**
 * The UI family: ui_dump (compact tree with refs) and ui_tap / ui_swipe (by ref or coordinates).
 * A ref belongs to the dump that made it: once the screen may have changed (an action since, or a
 * while gone by), a ref is used only if a fresh dump still shows that element (same class, id,
 * bounds, and text or description); otherwise it is refused and the model takes a new ui_dump.
 * input_text is input-text.ts; screenshots are screenshot.ts.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { type DeviceCall, defineDeviceTool } from './device-tool';
import { firstLines } from './arguments';
import { requireInput } from './refusals';
import { GEOMETRY_COMMAND, parseGeometry } from '../screen/display-geometry';
import { FOCUS_COMMAND, parseFocus } from './window-focus';
import { readUiDump } from './ui-dump-reader';
import { type UiElement, type UiRefStore, elementLine, renderSnapshot, sameElement } from './ui-tree';

const REF = z.string().regex(/^e\d+$/, 'not an element ref; refs look like "e7" and come from ui_dump');
const COORD = z.number().int().min(0).max(20_000);

/** A dump is taken as still showing the screen for this long, if no action ran since. */
const REF_TRUST_MS = 10_000;

/** The latest dump still shows the screen: nothing acted on the device since, and it is recent. */
function dumpIsCurrent(device: DeviceCall, refs: UiRefStore): boolean {
  const snapshot = refs.snapshot(device.serial);
  if (!snapshot) return false;
  const actedSince = device.previousActionAt !== undefined && device.previousActionAt >= snapshot.at;
  return !actedSince && device.service.telemetry.now() - snapshot.at < REF_TRUST_MS;
}

async function screenSize(device: DeviceCall, refs: UiRefStore): Promise<{ width: number; height: number }> {
  // A foldable changes size when folded, a phone when rotated: an older dump's size may be wrong.
  const known = dumpIsCurrent(device, refs) ? refs.snapshot(device.serial)?.screen : undefined;
  if (known) return known;
  // The state read after the last action (which this call's environment gate waited for) read it.
  if (device.screenBefore) return device.screenBefore;
  // `wm size` is the natural orientation's: turned by the rotation, as taps address the screen.
  const out = (await device.run(GEOMETRY_COMMAND)).output;
  const size = parseGeometry(out);
  if (!size)
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `Could not read the screen size of ${device.serial}: ${firstLines(out)}`,
    );
  return { width: size.width, height: size.height };
}

/** A dump's refs as a short list: `e1, e2, e7` or `e1, e2, … e40 (40)`. */
function refList(refs: string[]): string {
  if (refs.length === 0) return 'no elements';
  if (refs.length <= 6) return refs.join(', ');
  return `${refs.slice(0, 3).join(', ')}, … ${refs.at(-1)} (${refs.length})`;
}

function noSuchRef(refs: UiRefStore, serial: string, ref: string): ToolCallError {
  const known = refs.snapshot(serial);
  return new ToolCallError(
    'NOT_FOUND',
    known
      ? `No element ${ref} in the recent ui_dumps of ${serial}: the ref was never given, or its dump is too old ` +
          `(the latest has ${refList(known.elements.map((e) => e.ref))}).`
      : `No ui_dump has been taken of ${serial} yet, so ${ref} means nothing.`,
    { hint: 'Call ui_dump and use a ref from its output.', data: { fields: ['ref'] } },
  );
}

/**
 * Whether the window the latest dump saw still has the focus: one cheap read that tells a screen the
 * app or a person moved on (another activity, a dialog, the lock screen) without any tool of
 * Toolgate's. True when the dump did not record its window (nothing to compare).
 */
async function sameWindow(device: DeviceCall, refs: UiRefStore): Promise<boolean> {
  const dumped = refs.snapshot(device.serial)?.focus;
  if (dumped === undefined) return true;
  return parseFocus((await device.run(FOCUS_COMMAND)).output) === dumped;
}

/**
 * The element a ref names, checked against the screen: trusted as dumped when the ref is from the
 * latest dump, nothing acted on the device since, the dump is recent and its window still has the
 * focus; otherwise (an older dump's ref, or a screen that may have changed) looked up in a fresh dump.
 */
async function currentElement(
  device: DeviceCall,
  refs: UiRefStore,
  ref: string,
  signal: AbortSignal,
): Promise<{ element: UiElement; checked: boolean }> {
  const found = refs.lookup(device.serial, ref);
  if (!found) throw noSuchRef(refs, device.serial, ref);
  const { element } = found;
  if (found.latest && dumpIsCurrent(device, refs) && (await sameWindow(device, refs)))
    return { element, checked: false };
  const fresh = await readUiDump(device, { budgetMs: 15_000, signal, treeOnly: true });
  const match = fresh.snapshot.elements.find((e) => sameElement(element, e));
  if (match) return { element: match, checked: true };
  throw new ToolCallError(
    'NOT_FOUND',
    `${ref} (${elementLine(element)
      .trim()
      .replace(
        /^e\d+ /,
        '',
      )}) is no longer on the screen of ${device.serial}: the screen changed since the ui_dump that made ${ref}.`,
    { hint: 'Take a new ui_dump and use a ref from it.', data: { fields: ['ref'], stale: true } },
  );
}

function checkInside(x: number, y: number, screen: { width: number; height: number }, field: string): void {
  if (x >= screen.width || y >= screen.height) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `${field} (${x},${y}) is outside the ${screen.width}x${screen.height} screen.`,
      { data: { fields: [field] } },
    );
  }
}

const UI_CHANGE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
  sensitiveAction: false,
};

export function uiDumpTool(service: DeviceService, refs: UiRefStore): Tool {
  return defineDeviceTool(service, {
    id: 'ui_dump',
    title: 'Read the screen as a UI tree',
    description:
      'Lists the elements on the screen, one a line: ref (e7, for ui_tap and ui_swipe), class, "text", desc, id, ' +
      '@x,y centre, states.',
    input: { raw: z.boolean().default(false).describe('Also the XML (many tokens).') },
    metadata: { category: 'ui', risk: 'LOW', tags: ['device', 'ui'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    async run(args, device, ctx) {
      const read = await readUiDump(device, { signal: ctx.signal });
      const snapshot = { ...read.snapshot, at: service.telemetry.now() };
      const stored = refs.set(snapshot);
      const text = renderSnapshot(stored);
      return success(args.raw ? `${text}\n\n${read.xml}` : text, {
        serial: device.serial,
        elements: snapshot.elements.length,
        packageName: snapshot.packageName ?? null,
        screen: snapshot.screen ?? null,
        locked: snapshot.locked ?? null,
        attempts: read.attempts,
      });
    },
  });
}

export function uiTapTool(service: DeviceService, refs: UiRefStore): Tool {
  return defineDeviceTool(service, {
    id: 'ui_tap',
    title: 'Tap the screen',
    description:
      'Taps an element by its ref from the latest ui_dump, or the point x,y; a ref whose element left the screen ' +
      'is refused.',
    input: {
      ref: REF.optional(),
      x: COORD.optional(),
      y: COORD.optional(),
    },
    metadata: { category: 'ui', risk: 'MEDIUM', tags: ['device', 'ui'] },
    annotations: UI_CHANGE,
    changesUi: true,
    async run(args, device, ctx) {
      let x: number;
      let y: number;
      let what: string;
      if (args.ref !== undefined) {
        if (args.x !== undefined || args.y !== undefined)
          throw new ToolCallError('INVALID_ARGUMENT', 'Give either ref or x and y, not both.', {
            data: { fields: ['ref', 'x', 'y'] },
          });
        const { element } = await currentElement(device, refs, args.ref, ctx.signal);
        ({ x, y } = element.center);
        what = `${args.ref} ${elementLine(element)
          .trim()
          .replace(/^e\d+ /, '')}`;
      } else {
        if (args.x === undefined || args.y === undefined)
          throw new ToolCallError('INVALID_ARGUMENT', 'Give a ref from ui_dump, or both x and y.', {
            data: { fields: ['ref', 'x', 'y'] },
          });
        ({ x, y } = args as { x: number; y: number });
        checkInside(x, y, await screenSize(device, refs), 'x,y');
        what = `(${x},${y})`;
      }
      requireInput(await device.run(sh`input tap ${x} ${y}`), device.serial, '`input tap`');
      return success(`Tapped ${what} on ${device.serial}.`);
    },
  });
}

const DIRECTION = z.enum(['up', 'down', 'left', 'right']);

export function uiSwipeTool(service: DeviceService, refs: UiRefStore): Tool {
  return defineDeviceTool(service, {
    id: 'ui_swipe',
    title: 'Swipe on the screen',
    description:
      'Swipes in a direction (the finger\'s: "up" scrolls a list down) from the centre of ref or the screen, or ' +
      'from x1,y1 to x2,y2.',
    input: {
      direction: DIRECTION.optional(),
      ref: REF.optional(),
      distance: z.number().int().min(10).max(20_000).optional().describe('Pixels; 40% of the screen if omitted.'),
      x1: COORD.optional(),
      y1: COORD.optional(),
      x2: COORD.optional(),
      y2: COORD.optional(),
      durationMs: z.number().int().min(1).max(10_000).default(300).describe('Longer scrolls less.'),
    },
    metadata: { category: 'ui', risk: 'MEDIUM', tags: ['device', 'ui'] },
    annotations: UI_CHANGE,
    changesUi: true,
    async run(args, device, ctx) {
      let from: { x: number; y: number };
      let to: { x: number; y: number };
      if (args.direction !== undefined) {
        const start =
          args.ref !== undefined ? (await currentElement(device, refs, args.ref, ctx.signal)).element : undefined;
        const screen = await screenSize(device, refs);
        from = start?.center ?? { x: Math.round(screen.width / 2), y: Math.round(screen.height / 2) };
        const vertical = args.direction === 'up' || args.direction === 'down';
        const distance = args.distance ?? Math.round((vertical ? screen.height : screen.width) * 0.4);
        const sign = args.direction === 'up' || args.direction === 'left' ? -1 : 1;
        const clampX = (v: number) => Math.min(screen.width - 1, Math.max(0, v));
        const clampY = (v: number) => Math.min(screen.height - 1, Math.max(0, v));
        to = vertical
          ? { x: from.x, y: clampY(from.y + sign * distance) }
          : { x: clampX(from.x + sign * distance), y: from.y };
      } else {
        const { x1, y1, x2, y2 } = args;
        if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) {
          throw new ToolCallError('INVALID_ARGUMENT', 'Give a direction, or all of x1, y1, x2 and y2.', {
            data: { fields: ['direction', 'x1', 'y1', 'x2', 'y2'] },
          });
        }
        const screen = await screenSize(device, refs);
        from = { x: x1, y: y1 };
        to = { x: x2, y: y2 };
        checkInside(x1, y1, screen, 'x1,y1');
        checkInside(x2, y2, screen, 'x2,y2');
      }
      requireInput(
        await device.run(sh`input swipe ${from.x} ${from.y} ${to.x} ${to.y} ${args.durationMs}`, {
          timeoutMs: 15_000,
          readState: true,
        }),
        device.serial,
        '`input swipe`',
      );
      return success(`Swiped from (${from.x},${from.y}) to (${to.x},${to.y}) on ${device.serial}.`);
    },
  });
}
