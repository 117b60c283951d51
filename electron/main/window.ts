/**
 * The one app window, hardened: context isolation, sandbox, no Node in the page, navigation and
 * window.open blocked (https links open in the user's browser instead).
 */
import { join } from 'node:path';
import { BrowserWindow, shell } from 'electron';

export function createMainWindow(dir: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Toolgate',
    show: false,
    webPreferences: {
      preload: join(dir, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  void win.loadFile(join(dir, '../renderer/index.html'));
  return win;
}
