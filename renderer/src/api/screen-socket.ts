/**
 * A device's live screen over the WebSocket `/api/screen` of the host that served this page (same
 * origin: the UI session cookie goes with it): status messages as JSON text, frames as binary
 * messages, acks back as text (shared/screen-wire.ts). A malformed message is dropped.
 */
import {
  type OpenScreen,
  SCREEN_SOCKET_PATH,
  type ScreenListener,
  ScreenStatus,
  decodeFrame,
} from '../../../shared/screen-wire';

export function screenSocketUrl(location: Location, query: Record<string, string>): string {
  const params = new URLSearchParams(query);
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SCREEN_SOCKET_PATH}?${params}`;
}

export function deliverScreenMessage(data: unknown, listener: ScreenListener): void {
  if (typeof data === 'string') {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const status = ScreenStatus.safeParse(json);
    if (status.success) listener.status(status.data);
    return;
  }
  if (data instanceof ArrayBuffer || data instanceof Uint8Array) {
    const frame = decodeFrame(data);
    if (frame) listener.frame(frame);
  }
}

export function screenOverSocket(location: Location): OpenScreen {
  return (request, listener) => {
    const socket = new WebSocket(
      screenSocketUrl(location, {
        serial: request.serial,
        maxWidth: String(request.maxWidth),
        maxHeight: String(request.maxHeight),
        h264: request.h264 === false || request.h264 === '0' ? '0' : '1',
      }),
    );
    socket.binaryType = 'arraybuffer';
    let closed = false;
    socket.onmessage = (message) => deliverScreenMessage(message.data, listener);
    socket.onclose = (close) => {
      if (closed) return;
      closed = true;
      listener.closed(close.reason || (close.code === 1006 ? 'connection lost' : `closed (${close.code})`));
    };
    return {
      ack(seq) {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'ack', seq }));
      },
      close() {
        closed = true;
        socket.close();
      },
    };
  };
}
