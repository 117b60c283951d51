/**
 * screenshot: a display of the device as a PNG image for the model, optionally scaled down to save
 * tokens. With several displays (foldables) screencap needs `-d`, or it prints a warning before the
 * image and captures the first display, on or off; the tool captures the one that is on unless told
 * which. Text before the image is skipped; the size reported is the image's own. Per phone, the
 * first captures try the phone's PNG (`screencap -p`) and its raw pixels encoded here (`screencap`);
 * the faster is kept (a phone's PNG encoder takes 0.5–2 s for 1080x2400 where USB 2 carries the
 * raw frame in ~0.3 s, while a slow link favours the PNG; screen-capture.ts).
 */
import { PNG } from 'pngjs';
import { z } from 'zod';
import { ToolCallError, imageSuccess } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { deviceToolError } from '../manager/device-errors';
import { DeviceIoError } from '../manager/device-io-error';
import { MULTI_DISPLAY_WARNING, type PhoneDisplay, defaultDisplay, listDisplays, splitCaptureText } from '../displays';
import { PNG_SIGNATURE, pngSize } from '../png';
import { CaptureChoice } from '../screen-capture';
import { receiveRawFrame } from '../raw-frame';
import { type DeviceCall, defineDeviceTool } from './device-tool';

/**
 * Box-filter downscale (each output pixel averages the source pixels it covers); pngjs only codes, it does not
 * resize.
 */
export function scalePng(data: Buffer, scale: number): { data: Buffer; width: number; height: number } {
  const src = PNG.sync.read(data);
  const width = Math.max(1, Math.round(src.width * scale));
  const height = Math.max(1, Math.round(src.height * scale));
  const out = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * src.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * src.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * src.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * src.width) / width));
      const sum = [0, 0, 0, 0];
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * src.width + sx) * 4;
          for (let c = 0; c < 4; c++) sum[c]! += src.data[i + c]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) out.data[o + c] = Math.round(sum[c]! / n);
    }
  }
  return { data: PNG.sync.write(out), width, height };
}

const STATE_COMMAND =
  "dumpsys window windows | grep -E '^  Window #|^      fl=|^  mCurrentFocus='; dumpsys power | grep mWakefulness=";

/** A reading of the focused window's flags and the screen is reused this long, if nothing acted since. */
const STATE_REUSE_MS = 3_000;

const SCREEN_OFF =
  ' The screen is off, so the image is black: wake the device (shell_execute "input keyevent KEYCODE_WAKEUP").';

/**
 * Why a capture is black, from the phone's own state rather than its pixels: the focused window's
 * FLAG_SECURE (`fl=… SECURE …` in `dumpsys window windows`), or the screen being off. Only asked
 * when the frame is mostly black (RawCapture.mostlyBlack), or the phone's PNG small enough to be
 * mostly one colour: real screens with content compress far worse than a black frame.
 */
function whyBlack(state: string): string {
  if (/mWakefulness=(Asleep|Dozing)/.test(state)) return SCREEN_OFF;
  const focus = /^ {2}mCurrentFocus=(Window\{[^}]*\})/m.exec(state)?.[1];
  const focused = focus ? state.split(/^(?= {2}Window #)/m).find((b) => b.includes(`${focus}:`)) : undefined;
  if (focused && /^ {6}fl=.*\bSECURE\b/m.test(focused))
    return (
      ' The focused window is a secure one (FLAG_SECURE, as banking and payment screens set): ' +
      'Android leaves it black in screenshots. ui_dump can still read it.'
    );
  return '';
}

const DISPLAY_ID = z
  .string()
  .regex(
    /^\d{1,20}$/,
    'not a display id; use a number from `dumpsys SurfaceFlinger --display-id` or a logical id like "0"',
  )
  .describe('A display id; "0" is the main one.');

export function screenshotTool(service: DeviceService): Tool {
  /** Phones known to have several displays: their captures name one with -d. */
  const multiDisplay = new Set<string>();
  const states = new Map<string, { at: number; text: string }>();
  /** Per phone, which way of capturing is faster. */
  const choices = new Map<string, CaptureChoice>();
  /** The window and power state, read anew unless a recent reading still holds. */
  const stateOf = async (device: DeviceCall): Promise<string> => {
    const now = service.telemetry.now();
    const last = states.get(device.serial);
    const actedSince =
      device.previousActionAt !== undefined && last !== undefined && device.previousActionAt >= last.at;
    if (last && !actedSince && now - last.at < STATE_REUSE_MS) return last.text;
    const text = (await device.run(STATE_COMMAND)).output;
    states.set(device.serial, { at: now, text });
    return text;
  };
  return defineDeviceTool(service, {
    id: 'screenshot',
    title: 'Take a screenshot',
    description:
      'Captures the device screen as a PNG; scale 0.5 gives a smaller one. ' +
      'To read text or find what to tap, ui_dump is cheaper.',
    input: {
      scale: z.number().min(0.1).max(1).default(1),
      display: DISPLAY_ID.optional(),
    },
    metadata: { category: 'ui', risk: 'LOW', tags: ['device', 'ui'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    async run(args, device, ctx) {
      const manager = service.manager;
      const pick = async (): Promise<PhoneDisplay | undefined> => {
        const displays = await listDisplays(manager, device.serial, { signal: ctx.signal });
        if (args.display === undefined) return defaultDisplay(displays);
        const wanted = args.display;
        const found = displays.find((d) => d.physicalId === wanted || String(d.logicalId) === wanted);
        if (found) return found;
        const listed = displays
          .map((d) => `${d.physicalId} (logical ${d.logicalId}, ${d.width}x${d.height}${d.active ? ', on' : ', off'})`)
          .join('; ');
        throw new ToolCallError('NOT_FOUND', `Device ${device.serial} has no display ${wanted}.`, {
          hint: `Use one of its displays: ${listed || 'none listed'}.`,
          data: { fields: ['display'] },
        });
      };
      let choice = choices.get(device.serial);
      if (!choice) choices.set(device.serial, (choice = new CaptureChoice()));
      const opts = { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024 };
      const target = (display: PhoneDisplay | undefined) => (display ? ` -d ${display.physicalId}` : '');
      /** The raw pixels, encoded here; undefined when the phone's raw frame is not one this host reads. */
      const captureRaw = async (display: PhoneDisplay | undefined) => {
        const raw = await receiveRawFrame((sink) => device.execInto(`screencap${target(display)}`, sink, opts));
        if (!raw) return undefined;
        return { text: raw.text, image: raw.png, data: raw.head, dark: raw.mostlyBlack };
      };
      const capture = async (display: PhoneDisplay | undefined) => {
        const format = choice.next();
        const started = performance.now();
        if (format === 'raw') {
          const shot = await captureRaw(display);
          if (shot) {
            choice.record('raw', performance.now() - started);
            return shot;
          }
          choice.unusable('raw');
        }
        const data = await device.exec(`screencap -p${target(display)}`, opts);
        const shot = { ...splitCaptureText(data, PNG_SIGNATURE), data, dark: undefined };
        if (format === 'png' && pngSize(shot.image)) choice.record('png', performance.now() - started);
        return shot;
      };
      let display = args.display !== undefined || multiDisplay.has(device.serial) ? await pick() : undefined;
      let shot = await capture(display);
      if (!display && MULTI_DISPLAY_WARNING.test(shot.text)) {
        // screencap took "the first display found", which need not be the one that is on.
        multiDisplay.add(device.serial);
        display = await pick();
        if (display) shot = await capture(display);
      }
      const png = shot.image;
      const size = pngSize(png);
      if (!size) {
        await manager.tracker.check().catch(() => undefined);
        const state = manager.tracker.get(device.serial)?.state;
        // Cut off mid-capture: the link dropped during the command (adb may list the phone offline by now).
        if (shot.data.length === 0 || state !== 'device')
          throw deviceToolError(
            new DeviceIoError('disconnected', 'the capture ended early', device.serial),
            device.serial,
            '`screencap`',
          );
        throw new ToolCallError(
          'EXECUTION_FAILED',
          `The device did not return a PNG (${shot.data.length} bytes): ` +
            shot.data.subarray(0, 160).toString('utf8').trim(),
          { hint: 'The device may be busy; retry once.' },
        );
      }
      const which = display ? ` display ${display.physicalId}` : '';
      const black =
        display && !display.active
          ? ` Display ${display.physicalId} is off, so the image is black; the one that is on is the default.`
          : (shot.dark ?? png.length <= (size.width * size.height) / 100)
            ? whyBlack(await stateOf(device))
            : '';
      if (args.scale >= 0.999)
        return imageSuccess(
          png,
          'image/png',
          `Screenshot of ${device.serial}${which} (${size.width}x${size.height}).${black}`,
        );
      const scaled = scalePng(png, args.scale);
      return imageSuccess(
        scaled.data,
        'image/png',
        `Screenshot of ${device.serial}${which} (${size.width}x${size.height}, ` +
          `scaled to ${scaled.width}x${scaled.height}).${black}`,
      );
    },
  });
}
