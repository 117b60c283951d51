/** screenshot: the device screen as a PNG image for the model, optionally scaled down to save tokens. */
import { PNG } from 'pngjs';
import { z } from 'zod';
import { ToolCallError, imageSuccess } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { deviceToolError } from '../manager/device-errors';
import { DeviceIoError } from '../manager/device-io-error';
import { pngSize } from '../png';
import { defineDeviceTool } from './device-tool';

/** Box-filter downscale (each output pixel averages the source pixels it covers); pngjs only codes, it does not resize. */
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

export function screenshotTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'screenshot',
    title: 'Take a screenshot',
    description:
      'Captures the device screen as a PNG image. Use scale (e.g. 0.5) for a smaller image when details do not matter; ui_dump is cheaper for reading text and finding what to tap.',
    input: {
      scale: z.number().min(0.1).max(1).default(1).describe('Size factor from 0.1 to 1 (default 1 = full resolution).'),
    },
    metadata: { category: 'ui', risk: 'LOW', tags: ['device', 'ui'] },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    async run(args, device) {
      const png = await device.exec('screencap -p', { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024 });
      const size = pngSize(png);
      if (!size) {
        await service.manager.tracker.check().catch(() => undefined);
        const state = service.manager.tracker.get(device.serial)?.state;
        if (png.length === 0 || state !== 'device')
          throw deviceToolError(
            new DeviceIoError(
              state === 'device' ? 'disconnected' : 'offline',
              'the capture ended early',
              device.serial,
            ),
            device.serial,
            '`screencap`',
          );
        throw new ToolCallError(
          'EXECUTION_FAILED',
          `The device did not return a PNG (${png.length} bytes): ${png.subarray(0, 120).toString('utf8').trim()}`,
          {
            hint: 'The screen may be protected (secure window) or the device busy; retry once.',
          },
        );
      }
      if (args.scale >= 0.999)
        return imageSuccess(png, 'image/png', `Screenshot of ${device.serial} (${size.width}x${size.height}).`);
      const scaled = scalePng(png, args.scale);
      return imageSuccess(
        scaled.data,
        'image/png',
        `Screenshot of ${device.serial} (${size.width}x${size.height}, scaled to ${scaled.width}x${scaled.height}).`,
      );
    },
  });
}
