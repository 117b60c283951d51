/**
 * `toolgate serve [--port N] [--data-dir DIR] [--virtual-device[=PROFILE] [--screen WxH] [--link usb2|wifi]]`:
 * the headless host, with the demo phone of that profile, its display resized, behind a cable of
 * that speed. When ready it prints exactly one JSON line to stdout (with `uiLink`, the one-time link
 * that opens the UI for a person); everything else goes to stderr and the log file.
 * `toolgate ui-link [--data-dir DIR]`: prints a fresh one-time UI link for the host running there.
 * `toolgate mcp-stdio [--data-dir DIR | --url URL] [--token T]`: the stdio bridge to a running host.
 * It talks to the data dir's host over its local socket (mcp/mcp-socket.ts) when that socket is its
 * own account's; otherwise over HTTP, sending the token only to a host that proved it holds it, on a
 * port of its own account. It runs until its stdin ends, a signal asks it to stop, or the process
 * that started it is gone. The host's modules load only for `serve`, so the bridge starts light.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PROFILE, PROFILE_NAMES, isProfileName } from '../devices/virtual/profiles';
import { defaultDataDir } from './data-dir';
import { UI_LINK_TTL_MS, uiLink } from './auth/ui-link';
import { readHostFile } from './host-file';
import { ownAccountFetch } from './mcp/own-account-fetch';
import { proveHost } from './mcp/prove-host';
import { runStdioBridge } from './mcp/stdio-bridge';
import { mcpSocketPath } from './mcp/mcp-socket';
import { openHostSocket, relayStdio } from './mcp/socket-bridge';
import { HOST_VERSION } from './version';
import { isLinkPreset } from '../devices/virtual/link-throttle';

const USAGE = `usage:
  toolgate serve [--port N] [--data-dir DIR]
                 [--virtual-device[=pixel|samsung|xiaomi|legacy|foldable] [--screen WxH] [--link usb2|wifi]]
  toolgate ui-link [--data-dir DIR]
  toolgate mcp-stdio [--data-dir DIR | --url URL] [--token TOKEN]`;

function fail(message: string, usage = true): never {
  process.stderr.write(`toolgate: ${message}\n${usage ? `${USAGE}\n` : ''}`);
  process.exit(2);
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function serve(argv: string[], mode: 'headless' | 'electron-fallback' = 'headless'): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      // A bare --virtual-device means the default profile.
      args: argv.map((a) => (a === '--virtual-device' ? `--virtual-device=${DEFAULT_PROFILE}` : a)),
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'virtual-device': { type: 'string' },
        screen: { type: 'string' },
        link: { type: 'string' },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const port = values.port === undefined ? 7878 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer from 0 to 65535, got '${values.port}'`);
  const profile = values['virtual-device'];
  if (profile !== undefined && !isProfileName(profile))
    fail(`--virtual-device must be one of ${PROFILE_NAMES.join(', ')}, got '${profile}'`);
  const screen = values.screen === undefined ? undefined : /^(\d+)x(\d+)$/.exec(values.screen);
  const size = screen ? { width: Number(screen[1]), height: Number(screen[2]) } : undefined;
  if (values.screen !== undefined && (!size || [size.width, size.height].some((n) => n < 16 || n > 4096 || n % 2)))
    fail(`--screen must be WIDTHxHEIGHT with even sides from 16 to 4096 (1080x2400), got '${values.screen}'`);
  if (values.link !== undefined && !isLinkPreset(values.link))
    fail(`--link must be usb2 (~35 MB/s, 1 ms) or wifi (~5 MB/s, 5 ms), got '${values.link}'`);
  if ((size || values.link) && profile === undefined)
    fail('--screen and --link set up the virtual phone: add --virtual-device');
  const { startHost } = await import('./host');
  const host = await startHost({
    dataDir: values['data-dir'] ?? defaultDataDir(),
    port,
    warmCpuWorker: true,
    virtualDevice: profile ?? false,
    ...(size || values.link
      ? {
          virtualDeviceOptions: {
            ...(size ? { screen: size } : {}),
            ...(values.link && isLinkPreset(values.link) ? { link: values.link } : {}),
          },
        }
      : {}),
  });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    host.log(`received ${signal}; shutting down`);
    void host.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`shutdown failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  // Before the ready line: whoever reads it may signal at once, before another statement runs here.
  for (const signal of STOP_SIGNALS) process.on(signal, () => shutdown(signal));
  const link = host.uiLink();
  const ready = {
    ready: true,
    ui: host.address.ui,
    mcp: host.address.mcp,
    dataDir: host.dataDir,
    tokenFile: host.tokenFile,
    uiLink: link,
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  process.stderr.write(`${linkLine(link)}\n`);
  if (mode === 'electron-fallback')
    process.stderr.write('Toolgate runs headless here: open the link above in a browser.\n');
}

function linkLine(link: string): string {
  return `Open Toolgate (this link works once, within ${UI_LINK_TTL_MS / 60_000} min): ${link}`;
}

/** Signs a fresh UI link with the running host's key from its host.json (mode 0600: this account only). */
function uiLinkCommand(argv: string[]): void {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' } }, strict: true }));
  } catch (e) {
    fail((e as Error).message);
  }
  const dir = resolve(values['data-dir'] ?? defaultDataDir());
  const found = readHostFile(dir);
  if (!found.ok) fail(found.message, false);
  const running = found.host;
  if (typeof running.uiLinkKey !== 'string')
    fail(`${dir}/host.json holds no UI link key; restart the host with this version of Toolgate`, false);
  process.stdout.write(`${uiLink(`http://127.0.0.1:${running.port}/`, running.uiLinkKey)}\n`);
  process.stderr.write(`This link opens the Toolgate UI once, within ${UI_LINK_TTL_MS / 60_000} min.\n`);
}

async function mcpStdio(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { url: { type: 'string' }, token: { type: 'string' }, 'data-dir': { type: 'string' } },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const dir = resolve(values['data-dir'] ?? defaultDataDir());
  const tokenFile = join(dir, 'token');
  const givenToken =
    values.token ??
    process.env.TOOLGATE_TOKEN ??
    (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined);
  let url = values.url ?? process.env.TOOLGATE_URL;
  // The data dir's host: its local socket when it has one (one stream instead of an HTTP request per message).
  if (!url && givenToken) {
    const opened = await openHostSocket(mcpSocketPath(dir), givenToken);
    if (opened.ok) return keepRelaying(relayStdio(opened.socket, opened.leftover, process.stdin, process.stdout));
    if (opened.refused) fail(`the host at ${mcpSocketPath(dir)} refused the token: ${opened.message}`, false);
  }
  if (!url) {
    const found = readHostFile(dir);
    if (!found.ok) fail(found.message, false);
    url = `http://127.0.0.1:${found.host.port}/mcp`;
  }
  const token = givenToken;
  if (!token) fail(`no token: pass --token, set TOOLGATE_TOKEN, or point --data-dir at the host's data dir`);

  const connection = ownAccountFetch();
  const proof = await proveHost({ mcpUrl: url, token, fetch: connection.fetch });
  if (!proof.ok)
    fail(
      `refused to send the token to ${url}: ${proof.message}. ` +
        'If your Toolgate host runs, check --data-dir or --url; otherwise start it (npm run serve).',
      false,
    );
  let bridge: Awaited<ReturnType<typeof runStdioBridge>>;
  try {
    bridge = await runStdioBridge({ mcpUrl: url, token, version: HOST_VERSION, fetch: connection.fetch });
  } catch (e) {
    fail(`cannot reach the host at ${url}: ${(e as Error).message}`, false);
  }
  keepRelaying({ close: () => bridge.close().then(() => connection.close()) });
}

/** Runs the bridge until its stdin ends, a signal asks it to stop, or the process that started it is gone. */
function keepRelaying(bridge: { close(): Promise<void> }): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Should closing ever stall, the bridge still ends: an MCP host counts on it.
    setTimeout(() => process.exit(0), 5000).unref();
    void bridge.close().finally(() => process.exit(0));
  };
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.stdout.once('error', stop);
  for (const signal of STOP_SIGNALS) process.once(signal, stop);
  // Started as `npm run mcp-stdio`, the bridge sits below npm and a shell; a signal to npm ends the
  // shell and leaves the bridge to init. An orphaned bridge has no one to serve: it ends too.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && stop(), 500).unref();
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'mcp-stdio') return mcpStdio(rest);
  if (command === 'ui-link') return uiLinkCommand(rest);
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  fail(command ? `unknown command '${command}'` : 'missing command');
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`toolgate: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
