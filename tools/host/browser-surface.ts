/**
 * The Browser page's view of the browser family: state (tabs, url, recent actions, an open
 * dialog) and the mirrored page. Looking at the page never launches a browser: the mirror follows
 * whatever tab is active, from the first agent call on.
 */
import type { BrowserView, ScreenFrame } from '../../shared/contract';
import type { Disposable } from '../core/disposable';
import { type BrowserManager, FpsMeter } from '../browser';
import { redactUrlText } from '../network/secrets';
import type { BrowserSurface } from './surfaces';

/**
 * How the browser was reached, for the page; a remote endpoint may carry a credential (wss://user:pass@…, ?token=…),
 * never shown in the clear.
 */
export function connectionForView(
  connection: NonNullable<BrowserView['connection']>,
): NonNullable<BrowserView['connection']> {
  if (connection.mode !== 'cdp' && connection.mode !== 'server') return connection;
  return { ...connection, target: redactUrlText(connection.target) ?? '(an endpoint that is not a URL)' };
}

export function createBrowserSurface(manager: BrowserManager): BrowserSurface & { dispose(): void } {
  let cast: Promise<Disposable> | undefined;
  let sink: ((url: string, frame: ScreenFrame) => void) | undefined;
  const meter = new FpsMeter();

  const view = (): BrowserView => {
    const t = manager.telemetry();
    const tabs = manager
      .tabsNow()
      .map((tab) => ({ id: String(tab.id), url: tab.url, title: tab.title, active: tab.active }));
    const active = tabs.find((tab) => tab.active);
    const out: BrowserView = {
      started: t.started,
      tabs,
      recentActions: manager.recentActions(20).map((a) => ({
        tool: a.tool,
        target: a.target,
        at: a.at,
        outcome: a.ok ? 'ok' : a.code === 'PERMISSION_DENIED' ? 'refused' : 'failed',
        ...(a.code ? { code: a.code } : {}),
      })),
    };
    if (t.url) out.url = t.url;
    if (active?.title) out.title = active.title;
    if (t.dialogOpen && t.dialog) out.dialog = `${t.dialog.type}: ${t.dialog.message}`;
    const connection = manager.connection();
    if (connection) out.connection = connectionForView(connection);
    return out;
  };

  const stop = () => {
    const running = cast;
    cast = undefined;
    sink = undefined;
    void running?.then((d) => d.dispose()).catch(() => undefined);
  };

  return {
    view,
    async screen(on, onFrame) {
      if (!on) {
        stop();
        return { ok: true, message: 'Mirror stopped.' };
      }
      sink = onFrame;
      cast ??= manager.startScreencast((f) => {
        meter.tick();
        sink?.(f.url, {
          data: f.data,
          mimeType: 'image/jpeg',
          width: f.width,
          height: f.height,
          at: f.at,
          fps: meter.fps(),
        });
      });
      try {
        await cast;
      } catch (e) {
        cast = undefined;
        return { ok: false, message: `The mirror could not start: ${(e as Error).message}` };
      }
      return {
        ok: true,
        message: manager.telemetry().started
          ? 'Mirroring the active tab.'
          : 'No browser yet: the first browser tool call launches it, and the mirror follows.',
      };
    },
    dispose: stop,
  };
}
