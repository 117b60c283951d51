/**
 * Electron shell: one window, hardened (context isolation, sandbox, no Node in the page,
 * navigation and window.open blocked), and a single-instance lock. The only module that imports
 * 'electron'.
 */
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, shell } from 'electron';

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Toolgate',
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  void win.loadFile(join(__dirname, '../renderer/index.html'));
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  ipcMain.handle('toolgate:host-info', (event) => {
    if (!event.senderFrame?.url.startsWith('file://')) throw new Error('refused: unknown sender');
    return { version: app.getVersion(), mode: 'electron', mcpUrl: '', dataDir: app.getPath('userData') };
  });
  void app.whenReady().then(() => createWindow());
  app.on('window-all-closed', () => app.quit());
}
