/**
 * Preload: exposes a small, named API to the renderer through the context bridge. Nothing else
 * from Node or Electron reaches the page.
 */
import { contextBridge, ipcRenderer } from 'electron';

const api = {
  hostInfo: (): Promise<unknown> => ipcRenderer.invoke('toolgate:host-info'),
};

contextBridge.exposeInMainWorld('toolgate', api);
