/**
 * Starts the browser the settings ask for: a fresh launch, a persistent profile, or a connection
 * to a browser that is already running (a CDP endpoint, or a Playwright browser server, e.g. on a
 * lab machine). Launch failures become structured errors.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import type { SelfGuard } from '../common/self-guard';
import { ToolCallError, isToolCallError } from '../core/result';
import { redactUrlText, scrub, secretValues } from '../network/secrets';
import { type ExecutableProbe, resolveExecutable } from './executable';

/** Flags that keep a headless or lab Chrome quiet, deterministic and runnable as root in containers. */
export const LINUX_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface LaunchSettings {
  /** Path of Chrome/Chromium/Edge; auto-detected when absent. */
  executablePath?: string;
  /** Default true. */
  headless?: boolean;
  /** Keep cookies and logins in this profile directory (launchPersistentContext). */
  userDataDir?: string;
  /** Connect to a running browser (`http://127.0.0.1:9222` or a `ws://` endpoint) instead of launching one. */
  cdpEndpoint?: string;
  /**
   * Connect to a Playwright browser server (`ws://…` from `launchServer` / `playwright run-server`); a CDP endpoint
   * wins.
   */
  playwrightServer?: string;
  extraArgs?: string[];
  launchTimeoutMs?: number;
  viewport?: { width: number; height: number };
  probe?: ExecutableProbe;
  /** Toolgate itself: a launched browser resolves nothing on its ports (see `unreachablePortArgs`). */
  self?: SelfGuard;
  /**
   * Where a launched browser receives downloads while they wait for a person (downloads.ts); the
   * host gives a folder of its own, outside any workspace. Default: Playwright's temporary folder.
   */
  pendingDownloadsDir?: string;
}

/**
 * Chromium's own resolver told that no host resolves on Toolgate's ports. It applies below
 * everything routing sees or misses (redirect hops, workers and their WebSockets, service
 * workers, a name that rebinds to 127.0.0.1 after being checked), and before any connection is
 * made. Other hosts on the same port number are unreachable too, a price paid for closing it by
 * design; on 80 and 443, where that price would be the web, only this machine's names are mapped.
 */
export function unreachablePortArgs(ports: readonly number[]): string[] {
  if (ports.length === 0) return [];
  const rules = ports.flatMap((port) =>
    port === 80 || port === 443
      ? ['localhost', '*.localhost', '127.*', '0.*', '[::1]', '[::]', '[::ffff:*]'].map(
          (h) => `MAP ${h}:${port} ~NOTFOUND`,
        )
      : [`MAP *:${port} ~NOTFOUND`],
  );
  return [`--host-resolver-rules=${rules.join(', ')}`];
}

export type SessionMode = 'launch' | 'persistent' | 'cdp' | 'server';

export interface BrowserSession {
  mode: SessionMode;
  browser: Browser | null;
  context: BrowserContext;
  /** True when we own the browser process and should close it; false for a borrowed (CDP or server) browser. */
  owned: boolean;
  /** The executable launched, or the endpoint connected to: what a person debugging needs to see. */
  target: string;
  /** For a launched browser: without a window. */
  headless?: boolean;
}

/**
 * Playwright is loaded by the first browser session, not with the host: it holds ~32 MB of the
 * host's heap (node -e "require('playwright-core')", heapUsed before and after), and every full
 * garbage collection walks the heap, so a host that never opens a browser would pay for it on every
 * one (docs/architecture.md, "Parts and layers").
 */
async function playwrightChromium() {
  return (await import('playwright-core')).chromium;
}

export async function startSession(settings: LaunchSettings): Promise<BrowserSession> {
  const chromium = await playwrightChromium();
  const timeout = settings.launchTimeoutMs ?? 30_000;
  const viewport = settings.viewport ?? { width: 1280, height: 800 };
  try {
    if (settings.cdpEndpoint) {
      const browser = await chromium.connectOverCDP(settings.cdpEndpoint, { timeout });
      // The browser's existing context (its logins) is used as it is; service workers in it are
      // outside Toolgate's reach, the route of every request is not (request-guard.ts).
      const context =
        browser.contexts()[0] ??
        (await browser.newContext({ viewport, acceptDownloads: true, serviceWorkers: 'block' }));
      return { mode: 'cdp', browser, context, owned: false, target: settings.cdpEndpoint };
    }
    if (settings.playwrightServer) {
      const browser = await chromium.connect(settings.playwrightServer, { timeout });
      // Our own context on the shared browser: disconnecting closes it and leaves the server running.
      const context = await browser.newContext({ viewport, acceptDownloads: true, serviceWorkers: 'block' });
      return { mode: 'server', browser, context, owned: false, target: settings.playwrightServer };
    }
    const executablePath = resolveExecutable(settings.executablePath, settings.probe);
    const platform = settings.probe?.platform ?? process.platform;
    const args = [
      ...(platform === 'linux' ? LINUX_ARGS : []),
      ...(settings.extraArgs ?? []),
      // Last, so an extra argument of the same name cannot replace it.
      ...unreachablePortArgs(settings.self?.ports ?? []),
    ];
    const headless = settings.headless ?? true;
    if (settings.userDataDir) {
      const context = await chromium.launchPersistentContext(settings.userDataDir, {
        executablePath,
        ...(settings.pendingDownloadsDir ? { downloadsPath: settings.pendingDownloadsDir } : {}),
        args,
        headless,
        timeout,
        viewport,
        acceptDownloads: true,
        serviceWorkers: 'block',
      });
      return { mode: 'persistent', browser: context.browser(), context, owned: true, target: executablePath, headless };
    }
    const browser = await chromium.launch({
      executablePath,
      args,
      headless,
      timeout,
      ...(settings.pendingDownloadsDir ? { downloadsPath: settings.pendingDownloadsDir } : {}),
    });
    const context = await browser.newContext({ viewport, acceptDownloads: true, serviceWorkers: 'block' });
    return { mode: 'launch', browser, context, owned: true, target: executablePath, headless };
  } catch (e) {
    if (isToolCallError(e)) throw e;
    throw launchError(settings, e);
  }
}

function launchError(settings: LaunchSettings, e: unknown): ToolCallError {
  const message = e instanceof Error ? e.message : String(e);
  // Playwright colours its call log for terminals; a model reads the text without the escape codes.
  const head = message
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this removes
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .slice(0, 6)
    .join('\n')
    .slice(0, 800);
  if (settings.cdpEndpoint) {
    return new ToolCallError(
      'EXECUTION_FAILED',
      'Could not connect to the browser ' +
        `at ${shownEndpoint(settings.cdpEndpoint)}: ${scrubEndpoint(head, settings.cdpEndpoint)}`,
      {
        hint:
          'The remote browser is not reachable; ask the user to start it with --remote-debugging-port or fix ' +
          'the endpoint in Settings.',
      },
    );
  }
  if (settings.playwrightServer) {
    return new ToolCallError(
      'EXECUTION_FAILED',
      'Could not connect to the Playwright browser server ' +
        `at ${shownEndpoint(settings.playwrightServer)}: ${scrubEndpoint(head, settings.playwrightServer)}`,
      {
        hint:
          'The browser server is not reachable; ask the user to start it (e.g. `npx playwright run-server`) or ' +
          'fix the address in Settings.',
      },
    );
  }
  if (/ProcessSingleton|profile.*in use|SingletonLock/i.test(message)) {
    return new ToolCallError(
      'EXECUTION_FAILED',
      `The browser profile ${settings.userDataDir ?? ''} is in use by another browser: ${head}`,
      {
        hint: 'Another Chrome is using this profile; ask the user to close it or choose another profile directory.',
      },
    );
  }
  return new ToolCallError('EXECUTION_FAILED', `The browser failed to start: ${head}`, {
    hint: 'Retry once; if it fails again, the installed browser is broken or incompatible: tell the user.',
  });
}

/** An endpoint as errors show it: a password or token in it is never repeated to the model or the traces. */
function shownEndpoint(endpoint: string): string {
  return redactUrlText(endpoint) ?? '(the configured endpoint)';
}

/** Playwright's own message may quote the endpoint in full: its password and token values are taken out. */
function scrubEndpoint(message: string, endpoint: string): string {
  const shown = message.split(endpoint).join(shownEndpoint(endpoint));
  return URL.canParse(endpoint) ? scrub(shown, secretValues({}, new URL(endpoint))) : shown;
}
