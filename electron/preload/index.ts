/**
 * Preload: exposes exactly the contract's named methods and the event stream to the renderer
 * through the context bridge. Nothing else from Node or Electron reaches the page; main parses
 * every argument again.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL, METHOD_NAME_LIST, methodChannel } from '../../shared/method-names';

const api: Record<string, unknown> = {};
for (const method of METHOD_NAME_LIST) {
  api[method] = (input: unknown) => ipcRenderer.invoke(methodChannel(method), input ?? {});
}
api.onEvent = (listener: (event: unknown) => void) => {
  const handler = (_e: IpcRendererEvent, event: unknown) => listener(event);
  ipcRenderer.on(EVENT_CHANNEL, handler);
  return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
};

contextBridge.exposeInMainWorld('toolgate', Object.freeze(api));
