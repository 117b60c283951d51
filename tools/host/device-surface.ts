/**
 * The Devices page's view of the device family: the tracked devices with telemetry, one live
 * screen stream per device that somebody is watching, and a logcat excerpt. Taps and swipes from
 * the page do not come through here: they are ui_tap / ui_swipe calls through the pipeline.
 */
import type { DeviceService, ScreenStream } from '../devices';
import { sh } from '../devices';
import type { DeviceSurface } from './surfaces';

export function createDeviceSurface(service: DeviceService): DeviceSurface & { dispose(): void } {
  const streams = new Map<string, ScreenStream>();

  const stop = (serial: string) => {
    streams.get(serial)?.dispose();
    streams.delete(serial);
  };

  return {
    list: () => service.views(),
    async screen(serial, on, onFrame) {
      if (!on) {
        stop(serial);
        return { ok: true, message: 'Live screen stopped.' };
      }
      const known = service.devices().find((d) => d.serial === serial);
      if (!known) return { ok: false, message: `No device '${serial}' is attached.` };
      if (known.state !== 'device')
        return {
          ok: false,
          message: `Device '${serial}' is ${known.state}; reconnect it (cable or \`adb connect\`) to see its screen.`,
        };
      stop(serial);
      streams.set(serial, service.startScreenStream(serial, onFrame));
      // The person is looking now: read screen, foreground app and keyboard at once, not only after the next UI tool.
      void service.refreshTelemetry(serial).catch(() => undefined);
      return { ok: true, message: 'Live screen started.' };
    },
    async logcat(serial, lines) {
      const result = await service.manager.shell(serial, sh`logcat -d -v threadtime -t ${String(lines)}`, {
        timeoutMs: 10_000,
      });
      return result.output
        .split('\n')
        .map((l) => l.replace(/\r$/, ''))
        .filter((l) => l !== '' && !l.startsWith('--------- beginning of'));
    },
    dispose() {
      for (const serial of [...streams.keys()]) stop(serial);
    },
  };
}
