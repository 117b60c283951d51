/** What the UI's Devices and Browser pages need from their tool families (implemented beside each). */
import type { BrowserView, DeviceView, ScreenFrame } from '../../shared/contract';
import type { ScreenRequest } from '../../shared/screen-wire';
import type { ScreenSink, ScreenViewer, StreamStats } from '../devices';

/** What the UI's Devices page needs from the device family. */
export interface DeviceSurface {
  list(): DeviceView[];
  /** One viewer of a device's live screen (shared with every other viewer of that device) until it closes. */
  watch(request: ScreenRequest, sink: ScreenSink): ScreenViewer;
  /** The stream of a device while someone watches it (mode, viewers' windows, restarts). */
  screenStats(serial: string): StreamStats | undefined;
  logcat(serial: string, lines: number): Promise<string[]>;
}

/** Who may open a live screen: the device surface, as the HTTP server and the Electron bridge see it. */
export type ScreenWatcher = Pick<DeviceSurface, 'watch' | 'screenStats'>;

/** What the UI's Browser page needs from the browser family. */
export interface BrowserSurface {
  view(): BrowserView;
  screen(on: boolean, onFrame: (url: string, frame: ScreenFrame) => void): Promise<{ ok: boolean; message: string }>;
}
