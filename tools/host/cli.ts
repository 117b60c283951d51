/**
 * `toolgate serve [--port N] [--data-dir DIR] [--virtual-device]`: the headless host. When ready
 * it prints exactly one JSON line to stdout (with `uiLink`, the one-time link that opens the UI for
 * a person); everything else goes to stderr and the log file.
 * `toolgate ui-link [--data-dir DIR]`: prints a fresh one-time UI link for the host running there.
 * `toolgate mcp-stdio [--data-dir DIR | --url URL] [--token T]`: the stdio bridge to a running host.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from './data-dir';
import { startHost } from './host';
import { UI_LINK_TTL_MS, uiLink } from './auth/ui-link';
import { runStdioBridge } from './mcp/stdio-bridge';
import { HOST_VERSION } from './version';

const USAGE = `usage:
  toolgate serve [--port N] [--data-dir DIR] [--virtual-device]
  toolgate ui-link [--data-dir DIR]
  toolgate mcp-stdio [--data-dir DIR | --url URL] [--token TOKEN]`;

function fail(message: string): never {
  process.stderr.write(`toolgate: ${message}\n${USAGE}\n`);
  process.exit(2);
}

export async function serve(argv: string[], mode: 'headless' | 'electron-fallback' = 'headless'): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, 'virtual-device': { type: 'boolean' } },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const port = values.port === undefined ? 7878 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer from 0 to 65535, got '${values.port}'`);
  const host = await startHost({
    dataDir: values['data-dir'] ?? defaultDataDir(),
    port,
    virtualDevice: values['virtual-device'] ?? false,
  });
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
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
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
  const hostFile = join(values['data-dir'] ?? defaultDataDir(), 'host.json');
  let running: { ui?: unknown; uiLinkKey?: unknown; pid?: unknown } = {};
  try {
    running = JSON.parse(readFileSync(hostFile, 'utf8')) as typeof running;
  } catch {
    fail(`no running host found (${hostFile} is missing or unreadable); start one with \`npm run serve\``);
  }
  if (typeof running.ui !== 'string' || typeof running.uiLinkKey !== 'string')
    fail(`${hostFile} holds no UI link key; restart the host with this version of Toolgate`);
  if (typeof running.pid === 'number' && !processAlive(running.pid))
    fail(`the host that wrote ${hostFile} (pid ${running.pid}) is not running; start one with \`npm run serve\``);
  process.stdout.write(`${uiLink(running.ui, running.uiLinkKey)}\n`);
  process.stderr.write(`This link opens the Toolgate UI once, within ${UI_LINK_TTL_MS / 60_000} min.\n`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // gone, or the number now belongs to another account's process
  }
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
  const dir = values['data-dir'] ?? defaultDataDir();
  const hostFile = join(dir, 'host.json');
  const url =
    values.url ??
    process.env.TOOLGATE_URL ??
    (existsSync(hostFile) ? (JSON.parse(readFileSync(hostFile, 'utf8')) as { mcp?: string }).mcp : undefined);
  if (!url) fail(`no running host found (${hostFile} is missing); start one with \`npm run serve\` or pass --url`);
  const tokenFile = join(dir, 'token');
  const token =
    values.token ??
    process.env.TOOLGATE_TOKEN ??
    (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined);
  if (!token) fail(`no token: pass --token, set TOOLGATE_TOKEN, or point --data-dir at the host's data dir`);
  try {
    await runStdioBridge({ mcpUrl: url, token, version: HOST_VERSION });
  } catch (e) {
    fail(`cannot reach the host at ${url}: ${(e as Error).message}`);
  }
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'mcp-stdio') return mcpStdio(rest);
  if (command === 'ui-link') return uiLinkCommand(rest);
  fail(command ? `unknown command '${command}'` : 'missing command');
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`toolgate: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
