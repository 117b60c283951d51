/**
 * The live mirror: DevTools `Page.startScreencast` on the active tab, every frame acknowledged
 * (Chrome stops sending when frames go unacknowledged), re-attached whenever the active tab changes
 * or the browser is relaunched, until the returned disposable is disposed.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { CDPSession, Page } from 'playwright-core';
import type { Disposable } from '../core/disposable';

export interface ScreencastFrame {
  /** Base64 JPEG. */
  data: string;
  width: number;
  height: number;
  /** Epoch ms at which the frame arrived. */
  at: number;
  url: string;
}

export interface ScreencastOptions {
  /** JPEG quality 1-100, default 60. */
  quality?: number;
  maxWidth?: number;
  maxHeight?: number;
  everyNthFrame?: number;
}

export interface ScreencastSource {
  readonly now: () => number;
  activePage(): Page | undefined;
  onActivePageChanged(listener: (page: Page | undefined) => void): Disposable;
}

/**
 * Width and height from a JPEG's start-of-frame segment. Read by hand because a decoder library
 * would decode the whole image on every frame just to learn two numbers from its header.
 */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < jpeg.length) {
    if (jpeg[at] !== 0xff) return undefined;
    const marker = jpeg[at + 1] as number;
    const length = jpeg.readUInt16BE(at + 2);
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

export async function startScreencast(
  source: ScreencastSource,
  onFrame: (frame: ScreencastFrame) => void,
  options: ScreencastOptions = {},
): Promise<Disposable> {
  let session: CDPSession | undefined;
  let disposed = false;
  // Attach and detach run one after another, so a quick series of tab switches cannot leave two casts running.
  let queue: Promise<void> = Promise.resolve();

  const detach = async () => {
    const old = session;
    session = undefined;
    if (!old) return;
    await old.send('Page.stopScreencast').catch(() => undefined);
    await old.detach().catch(() => undefined);
  };

  const start = async (page: Page) => {
    const cdp = await page.context().newCDPSession(page);
    session = cdp;
    let sent = false;
    const emit = (data: string, fallback: { width: number; height: number }) => {
      if (disposed || session !== cdp) return;
      sent = true;
      const size = jpegSize(Buffer.from(data, 'base64')) ?? fallback;
      onFrame({ data, width: size.width, height: size.height, at: source.now(), url: page.url() });
    };
    cdp.on('Page.screencastFrame', (event) => {
      void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
      emit(event.data, {
        width: Math.round(event.metadata.deviceWidth),
        height: Math.round(event.metadata.deviceHeight),
      });
    });
    const quality = options.quality ?? 60;
    await cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality,
      ...(options.maxWidth ? { maxWidth: options.maxWidth } : {}),
      ...(options.maxHeight ? { maxHeight: options.maxHeight } : {}),
      everyNthFrame: options.everyNthFrame ?? 1,
    });
    // Chrome sends screencast frames only when the page repaints; a static page that finished
    // painting before we attached would leave the viewer on the previous tab. Send its current look.
    const shot = await cdp.send('Page.captureScreenshot', { format: 'jpeg', quality }).catch(() => undefined);
    if (shot && !sent) emit(shot.data, { width: 0, height: 0 });
  };

  const attach = async (page: Page | undefined) => {
    await detach();
    // A tab that was just opened swaps its renderer on its first navigation, and a cast started in
    // between fails ("Not attached to an active page"); try again shortly while it is still the one shown.
    for (let attempt = 0; attempt < 6; attempt++) {
      if (disposed || !page || page.isClosed() || source.activePage() !== page) return;
      try {
        await start(page);
        return;
      } catch {
        await detach();
        await delay(50 * 2 ** attempt);
      }
    }
  };

  const follow = (page: Page | undefined) => {
    queue = queue.then(() => attach(page)).catch(() => undefined);
    return queue;
  };

  const subscription = source.onActivePageChanged((page) => void follow(page));
  await follow(source.activePage());
  return {
    dispose() {
      if (disposed) return;
      disposed = true;
      subscription.dispose();
      queue = queue.then(detach).catch(() => undefined);
    },
  };
}
