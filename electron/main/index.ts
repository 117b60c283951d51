/**
 * Electron shell: a single instance that starts the host in this process (MCP endpoint included),
 * opens the hardened window, bridges the contract over IPC, and shows a desktop notification when
 * a destructive call waits for approval (a click on it opens the call's card). The only place that imports 'electron'.
 */
import { join } from 'node:path';
import { Notification, app } from 'electron';
import { EVENT_CHANNEL } from '../../shared/method-names';
import { startHost } from '../../tools/host/host';
import { bridgeHostToWindow } from './ipc-bridge';
import { createMainWindow } from './window';

async function main(): Promise<void> {
  await app.whenReady();
  const host = await startHost({
    dataDir: app.getPath('userData'),
    port: Number(process.env.TOOLGATE_PORT ?? 7878),
    mode: 'electron',
    rendererDir: join(__dirname, '../renderer'),
  });
  const win = createMainWindow(__dirname);
  const unbridge = bridgeHostToWindow(host, win);
  host.events.on((event) => {
    if (event.type !== 'approval-pending' || !Notification.isSupported()) return;
    const n = new Notification({
      title: 'Toolgate: approval needed',
      body: `${event.approval.toolId} (${event.approval.risk}) requested by ${event.approval.requester.label ?? event.approval.requester.kind}`,
    });
    // A click opens that call's card: the window comes forward and the page is told which one.
    n.on('click', () => {
      win.show();
      win.focus();
      if (!win.isDestroyed())
        win.webContents.send(EVENT_CHANNEL, { type: 'open-approval', approvalId: event.approval.approvalId });
    });
    n.show();
  });
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (e) => {
    e.preventDefault();
    unbridge();
    void host.close().finally(() => app.exit(0));
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  main().catch((e: unknown) => {
    process.stderr.write(`Toolgate failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    app.exit(1);
  });
}
