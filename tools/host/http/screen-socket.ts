/**
 * One viewer of a device's live screen over the WebSocket `/api/screen?serial=…&maxWidth=…&maxHeight=…`
 * (already admitted by the same person check as `/api/events`): status messages as text, frames as
 * binary messages (shared/screen-wire.ts), acks back as text. The viewer leaves when the socket
 * closes. Frames beyond the viewer's window are not sent at all (viewer-window.ts); the socket's own
 * buffer is a second bound, for a page that acknowledges frames it has not read.
 */
import type { WebSocket } from 'ws';
import { ScreenAck, type ScreenStatus, ScreenRequest, encodeFrame } from '../../../shared/screen-wire';
import type { ScreenWatcher } from '../surfaces';

const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

function failed(reason: string): ScreenStatus {
  return { type: 'status', mode: 'failed', reason, sourceFps: 0, skipped: 0, restarts: 0 };
}

export function serveScreenSocket(ws: WebSocket, url: URL, screens: ScreenWatcher | undefined): void {
  const request = ScreenRequest.safeParse(Object.fromEntries(url.searchParams));
  if (!request.success || !screens) {
    const issues = request.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    const reason = !screens
      ? 'The device tools are not available in this host.'
      : `The screen request is malformed: ${issues}. Pass serial, maxWidth and maxHeight.`;
    ws.send(JSON.stringify(failed(reason)));
    ws.close(1008, 'bad screen request');
    return;
  }
  const open = () => ws.readyState === ws.OPEN;
  const viewer = screens.watch(request.data, {
    status: (status) => {
      if (open()) ws.send(JSON.stringify(status));
    },
    frame: (frame) => {
      if (!open() || ws.bufferedAmount > MAX_BUFFERED_BYTES) return false;
      ws.send(encodeFrame(frame));
      return true;
    },
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      return;
    }
    const ack = ScreenAck.safeParse(json);
    if (ack.success) viewer.ack(ack.data.seq);
  });
  ws.on('close', () => viewer.close());
  ws.on('error', () => viewer.close());
}
