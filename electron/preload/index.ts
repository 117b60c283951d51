/**
 * Preload: exposes exactly the contract's named methods, the event stream and device screens to the
 * renderer through the context bridge. Nothing else from Node or Electron reaches the page; main
 * parses every argument again.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL, METHOD_NAME_LIST, SCREEN_CHANNELS, methodChannel } from '../../shared/method-names';

const api: Record<string, unknown> = {};
for (const method of METHOD_NAME_LIST) {
  api[method] = (input: unknown) => ipcRenderer.invoke(methodChannel(method), input ?? {});
}
api.onEvent = (listener: (event: unknown) => void) => {
  const handler = (_e: IpcRendererEvent, event: unknown) => listener(event);
  ipcRenderer.on(EVENT_CHANNEL, handler);
  return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
};
/** One viewer of a device's screen: messages `{ status }`, `{ frame }` (bytes) or `{ closed }` until closed. */
api.openScreen = (request: unknown, onMessage: (message: unknown) => void) => {
  let id: number | undefined;
  let closed = false;
  let acked: number | undefined;
  const handler = (_e: IpcRendererEvent, viewer: unknown, message: unknown) => {
    if (viewer === id && !closed) onMessage(message);
  };
  ipcRenderer.on(SCREEN_CHANNELS.message, handler);
  const close = () => {
    closed = true;
    ipcRenderer.removeListener(SCREEN_CHANNELS.message, handler);
    if (id !== undefined) ipcRenderer.send(SCREEN_CHANNELS.close, id);
  };
  ipcRenderer.invoke(SCREEN_CHANNELS.open, request).then(
    (viewer: unknown) => {
      id = typeof viewer === 'number' ? viewer : undefined;
      if (closed && id !== undefined) ipcRenderer.send(SCREEN_CHANNELS.close, id);
      else if (acked !== undefined && id !== undefined) ipcRenderer.send(SCREEN_CHANNELS.ack, id, acked);
    },
    (e: unknown) => {
      if (!closed) onMessage({ closed: e instanceof Error ? e.message : String(e) });
    },
  );
  return {
    ack(seq: number) {
      acked = seq;
      if (id !== undefined && !closed) ipcRenderer.send(SCREEN_CHANNELS.ack, id, seq);
    },
    close,
  };
};

contextBridge.exposeInMainWorld('toolgate', Object.freeze(api));
