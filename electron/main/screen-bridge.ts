/**
 * Device screens over IPC: the window's page opens a viewer (SCREEN_CHANNELS.open, the request
 * parsed with the contract), gets its status messages and frames on SCREEN_CHANNELS.message, and
 * acknowledges frames and closes over the other two channels. Only our own window may open one;
 * its viewers close when it navigates away or is destroyed.
 */
import { type BrowserWindow, type IpcMainEvent, ipcMain } from 'electron';
import { SCREEN_CHANNELS } from '../../shared/method-names';
import { ScreenRequest, encodeFrame } from '../../shared/screen-wire';
import type { ScreenViewer } from '../../tools/devices';
import type { ScreenWatcher } from '../../tools/host/surfaces';
import { isTrustedSender } from './ipc-bridge';

export function bridgeScreensToWindow(screens: ScreenWatcher | undefined, win: BrowserWindow): () => void {
  const viewers = new Map<number, ScreenViewer>();
  let nextId = 1;
  const send = (id: number, message: unknown) => {
    if (!win.isDestroyed()) win.webContents.send(SCREEN_CHANNELS.message, id, message);
  };
  const closeAll = () => {
    for (const viewer of viewers.values()) viewer.close();
    viewers.clear();
  };
  ipcMain.handle(SCREEN_CHANNELS.open, async (event, input: unknown) => {
    if (!isTrustedSender(event, win)) throw new Error('refused: the sender is not the Toolgate window');
    if (!screens) throw new Error('The device tools are not available in this host.');
    const request = ScreenRequest.safeParse(input);
    if (!request.success) throw new Error(`The screen request is malformed: ${request.error.message}`);
    const id = nextId++;
    const viewer = screens.watch(request.data, {
      status: (status) => send(id, { status }),
      frame: (frame) => {
        if (win.isDestroyed()) return false;
        send(id, { frame: encodeFrame(frame) });
        return true;
      },
    });
    viewers.set(id, viewer);
    return id;
  });
  const fromWindow = (event: IpcMainEvent) => event.sender === win.webContents;
  const onAck = (event: IpcMainEvent, id: unknown, seq: unknown) => {
    if (fromWindow(event) && typeof id === 'number' && typeof seq === 'number') viewers.get(id)?.ack(seq);
  };
  const onClose = (event: IpcMainEvent, id: unknown) => {
    if (!fromWindow(event) || typeof id !== 'number') return;
    viewers.get(id)?.close();
    viewers.delete(id);
  };
  ipcMain.on(SCREEN_CHANNELS.ack, onAck);
  ipcMain.on(SCREEN_CHANNELS.close, onClose);
  // A reload or a closed window leaves its viewers behind otherwise.
  win.webContents.on('did-start-navigation', closeAll);
  win.webContents.on('destroyed', closeAll);
  return () => {
    closeAll();
    ipcMain.removeHandler(SCREEN_CHANNELS.open);
    ipcMain.removeListener(SCREEN_CHANNELS.ack, onAck);
    ipcMain.removeListener(SCREEN_CHANNELS.close, onClose);
  };
}
