/**
 * The Devices page's view of the device family: the tracked devices with telemetry, the live
 * screens (one stream per watched device, shared by every viewer: the device service's ScreenHub)
 * and a logcat excerpt. Taps and swipes from the page do not come through here: they are ui_tap /
 * ui_swipe calls through the pipeline.
 */
import { ScreenRequest } from '../../shared/screen-wire';
import type { DeviceService } from '../devices';
import { sh } from '../devices';
import type { DeviceSurface } from './surfaces';

export function createDeviceSurface(service: DeviceService): DeviceSurface & { dispose(): void } {
  return {
    list: () => service.views(),
    watch(request, sink) {
      const parsed = ScreenRequest.parse(request);
      // The person is looking now: read screen, foreground app and keyboard at once, not only after the next UI tool.
      if (service.manager.tracker.get(parsed.serial)?.state === 'device')
        void service.refreshTelemetry(parsed.serial).catch(() => undefined);
      return service.screens.watch(parsed, sink);
    },
    screenStats: (serial) => service.screens.stats(serial),
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
      service.screens.close();
    },
  };
}
