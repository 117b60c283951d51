/** What the UI's Devices and Browser pages need from their tool families (implemented beside each). */
import type { BrowserView, DeviceView, ScreenFrame } from '../../shared/contract';

/** What the UI's Devices page needs from the device family. */
export interface DeviceSurface {
  list(): DeviceView[];
  /** Starts or stops the live screen of a device; frames go to `onFrame`. */
  screen(serial: string, on: boolean, onFrame: (frame: ScreenFrame) => void): Promise<{ ok: boolean; message: string }>;
  logcat(serial: string, lines: number): Promise<string[]>;
}

/** What the UI's Browser page needs from the browser family. */
export interface BrowserSurface {
  view(): BrowserView;
  screen(on: boolean, onFrame: (url: string, frame: ScreenFrame) => void): Promise<{ ok: boolean; message: string }>;
}
