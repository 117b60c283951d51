/**
 * The UI family: ui_dump (compact tree with refs), ui_tap and ui_swipe (by ref or coordinates)
 * and input_text (ASCII through `input text`, anything else through ADBKeyboard's base64
 * broadcast, since `input text` cannot type non-ASCII). Screenshots are screenshot.ts.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { type DeviceCall, defineDeviceTool } from './device-tool';
import { firstLines, requireSuccess } from './arguments';
import { type UiElement, type UiRefStore, elementLine, parseUiDump, renderSnapshot } from './ui-tree';

const REF = z.string().regex(/^e\d+$/, 'not an element ref; refs look like "e7" and come from ui_dump');
const COORD = z.number().int().min(0).max(20_000);

async function screenSize(device: DeviceCall, refs: UiRefStore): Promise<{ width: number; height: number }> {
  const known = refs.snapshot(device.serial)?.screen;
  if (known) return known;
  const out = (await device.run('wm size')).output;
  const m = /Override size: (\d+)x(\d+)/.exec(out) ?? /Physical size: (\d+)x(\d+)/.exec(out);
  if (!m)
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `Could not read the screen size of ${device.serial}: ${firstLines(out)}`,
    );
  return { width: Number(m[1]), height: Number(m[2]) };
}

function elementFor(refs: UiRefStore, serial: string, ref: string): UiElement {
  const element = refs.element(serial, ref);
  if (element) return element;
  const known = refs.snapshot(serial);
  throw new ToolCallError(
    'NOT_FOUND',
    known
      ? `No element ${ref} in the latest ui_dump of ${serial} (it has e1-e${known.elements.length}).`
      : `No ui_dump has been taken of ${serial} yet, so ${ref} means nothing.`,
    {
      hint: 'Call ui_dump and use a ref from its output.',
      data: { fields: ['ref'] },
    },
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
      'Lists the elements on the device screen, one per line: ref (e.g. e7, for ui_tap/ui_swipe), class, "text", desc=…, id=resource-id, @x,y centre, and states (clickable, focused, checked…). Empty layout containers are left out. raw=true adds the uiautomator XML.',
    input: { raw: z.boolean().default(false).describe('Also return the raw uiautomator XML (many more tokens).') },
    metadata: { category: 'ui', risk: 'LOW', tags: ['device', 'ui'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    async run(args, device) {
      const r = await device.run('uiautomator dump /dev/tty', { timeoutMs: 30_000, maxBytes: 8 * 1024 * 1024 });
      let snapshot;
      try {
        snapshot = parseUiDump(device.serial, r.output, Date.now());
      } catch {
        throw new ToolCallError('EXECUTION_FAILED', `uiautomator returned no UI tree: ${firstLines(r.output)}`, {
          hint: 'The screen may have been animating or locked; wait a moment and retry once (check with screenshot).',
        });
      }
      refs.set(snapshot);
      const text = renderSnapshot(snapshot);
      const raw = args.raw ? r.output.slice(r.output.indexOf('<'), r.output.lastIndexOf('>') + 1) : undefined;
      return success(raw ? `${text}\n\n${raw}` : text, {
        serial: device.serial,
        elements: snapshot.elements.length,
        packageName: snapshot.packageName ?? null,
      });
    },
  });
}

export function uiTapTool(service: DeviceService, refs: UiRefStore): Tool {
  return defineDeviceTool(service, {
    id: 'ui_tap',
    title: 'Tap the screen',
    description:
      'Taps an element by its ref from the latest ui_dump (preferred), or a point given as x and y in screen pixels. The screen may change afterwards; call ui_dump again for fresh refs.',
    input: {
      ref: REF.optional().describe('Element ref from the latest ui_dump, e.g. "e7".'),
      x: COORD.optional().describe('X in pixels from the left (with y, instead of ref).'),
      y: COORD.optional().describe('Y in pixels from the top (with x, instead of ref).'),
    },
    metadata: { category: 'ui', risk: 'MEDIUM', tags: ['device', 'ui'] },
    annotations: UI_CHANGE,
    changesUi: true,
    async run(args, device) {
      let x: number;
      let y: number;
      let what: string;
      if (args.ref !== undefined) {
        if (args.x !== undefined || args.y !== undefined)
          throw new ToolCallError('INVALID_ARGUMENT', 'Give either ref or x and y, not both.', {
            data: { fields: ['ref', 'x', 'y'] },
          });
        const element = elementFor(refs, device.serial, args.ref);
        ({ x, y } = element.center);
        what = elementLine(element).trim();
      } else {
        if (args.x === undefined || args.y === undefined)
          throw new ToolCallError('INVALID_ARGUMENT', 'Give a ref from ui_dump, or both x and y.', {
            data: { fields: ['ref', 'x', 'y'] },
          });
        ({ x, y } = args as { x: number; y: number });
        checkInside(x, y, await screenSize(device, refs), 'x,y');
        what = `(${x},${y})`;
      }
      requireSuccess(await device.run(sh`input tap ${x} ${y}`), '`input tap`');
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
      'Swipes: either in a direction (the way the finger moves: "up" scrolls a list further down) from the centre of an element (ref) or of the screen, or from x1,y1 to x2,y2. Use it to scroll lists and pages.',
    input: {
      direction: DIRECTION.optional().describe('Direction the finger moves: up, down, left or right.'),
      ref: REF.optional().describe(
        'With direction: start from the centre of this element from the latest ui_dump (e.g. a list).',
      ),
      distance: z
        .number()
        .int()
        .min(10)
        .max(20_000)
        .optional()
        .describe('With direction: how far the finger moves, in pixels (default: 40% of the screen).'),
      x1: COORD.optional().describe('Start x (instead of direction).'),
      y1: COORD.optional().describe('Start y (instead of direction).'),
      x2: COORD.optional().describe('End x (instead of direction).'),
      y2: COORD.optional().describe('End y (instead of direction).'),
      durationMs: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .default(300)
        .describe('How long the swipe takes, in ms (default 300; longer is slower and scrolls less).'),
    },
    metadata: { category: 'ui', risk: 'MEDIUM', tags: ['device', 'ui'] },
    annotations: UI_CHANGE,
    changesUi: true,
    async run(args, device) {
      const screen = await screenSize(device, refs);
      let from: { x: number; y: number };
      let to: { x: number; y: number };
      if (args.direction !== undefined) {
        from =
          args.ref !== undefined
            ? elementFor(refs, device.serial, args.ref).center
            : { x: Math.round(screen.width / 2), y: Math.round(screen.height / 2) };
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
        from = { x: x1, y: y1 };
        to = { x: x2, y: y2 };
        checkInside(x1, y1, screen, 'x1,y1');
        checkInside(x2, y2, screen, 'x2,y2');
      }
      requireSuccess(
        await device.run(sh`input swipe ${from.x} ${from.y} ${to.x} ${to.y} ${args.durationMs}`, { timeoutMs: 15_000 }),
        '`input swipe`',
      );
      return success(`Swiped from (${from.x},${from.y}) to (${to.x},${to.y}) on ${device.serial}.`);
    },
  });
}

/** What `input text` can type: printable ASCII, and no `%s` (which it would turn into a space). */
export function typableByInputText(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text) && !text.includes('%s');
}

export function inputTextTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'input_text',
    title: 'Type text',
    description:
      'Types text into the focused input field (tap the field first with ui_tap so the keyboard is shown). Plain ASCII is typed with `input text`; other text (accents, emoji, CJK, newlines) goes through the ADBKeyboard IME, which must be installed and selected on a real phone.',
    input: {
      text: z.string().min(1).max(4000).describe('The text to type.'),
      pressEnter: z
        .boolean()
        .default(false)
        .describe('Press Enter after typing (submits many forms and search fields).'),
    },
    metadata: { category: 'ui', risk: 'MEDIUM', tags: ['device', 'ui'] },
    annotations: UI_CHANGE,
    changesUi: true,
    async run(args, device) {
      const ascii = typableByInputText(args.text);
      const command = ascii
        ? sh`input text ${args.text.replace(/ /g, '%s')}`
        : sh`am broadcast -a ADB_INPUT_B64 --es msg ${Buffer.from(args.text, 'utf8').toString('base64')}`;
      const r = await device.run(command);
      if (r.exitCode !== 0 || /Exception/.test(r.output)) {
        throw new ToolCallError('EXECUTION_FAILED', `Typing failed on ${device.serial}: ${firstLines(r.output)}`, {
          hint: 'Tap the input field first (ui_tap), then retry.',
        });
      }
      if (args.pressEnter) requireSuccess(await device.run('input keyevent KEYCODE_ENTER'), '`input keyevent`');
      const how = ascii ? '' : ' via ADBKeyboard';
      return success(
        `Typed ${[...args.text].length} character(s)${how}${args.pressEnter ? ' and pressed Enter' : ''} on ${device.serial}.`,
      );
    },
  });
}
