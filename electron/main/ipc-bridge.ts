/**
 * The contract over IPC: one handler per method. A call from anything but our own window's page
 * is refused; every input is parsed with the contract's schema (in dispatchRpc) before the host
 * sees it. Host events are forwarded to the window.
 */
import { type BrowserWindow, type IpcMainInvokeEvent, ipcMain } from 'electron';
import { EVENT_CHANNEL, METHOD_NAME_LIST, methodChannel } from '../../shared/method-names';
import type { Host } from '../../tools/host/host';
import { dispatchRpc } from '../../tools/host/http/rpc-dispatch';

export function isTrustedSender(event: IpcMainInvokeEvent, win: BrowserWindow): boolean {
  return event.sender === win.webContents && (event.senderFrame?.url ?? '').startsWith('file://');
}

export function bridgeHostToWindow(host: Host, win: BrowserWindow): () => void {
  for (const method of METHOD_NAME_LIST) {
    ipcMain.handle(methodChannel(method), async (event, input: unknown) => {
      if (!isTrustedSender(event, win)) throw new Error('refused: the sender is not the Toolgate window');
      const outcome = await dispatchRpc(host.api, method, input);
      if (outcome.status !== 200) throw new Error((outcome.body as { error: string }).error);
      return outcome.body;
    });
  }
  const sub = host.events.on((event) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
  });
  return () => {
    sub.dispose();
    for (const method of METHOD_NAME_LIST) ipcMain.removeHandler(methodChannel(method));
  };
}
