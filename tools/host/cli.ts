/**
 * `toolgate serve [--port N] [--data-dir DIR] [--virtual-device[=PROFILE]]`: the headless host. When ready
 * it prints exactly one JSON line to stdout; everything else goes to stderr and the log file.
 * `toolgate mcp-stdio [--data-dir DIR | --url URL] [--token T]`: the stdio bridge to a running host.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PROFILE, PROFILE_NAMES, isProfileName } from '../devices/virtual/profiles';
import { defaultDataDir } from './data-dir';
import { startHost } from './host';
import { runStdioBridge } from './mcp/stdio-bridge';
import { HOST_VERSION } from './version';

const USAGE = `usage:
  toolgate serve [--port N] [--data-dir DIR] [--virtual-device[=pixel|samsung|xiaomi|legacy|foldable]]
  toolgate mcp-stdio [--data-dir DIR | --url URL] [--token TOKEN]`;

function fail(message: string): never {
  process.stderr.write(`toolgate: ${message}\n${USAGE}\n`);
  process.exit(2);
}

export async function serve(argv: string[], mode: 'headless' | 'electron-fallback' = 'headless'): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      // A bare --virtual-device means the default profile.
      args: argv.map((a) => (a === '--virtual-device' ? `--virtual-device=${DEFAULT_PROFILE}` : a)),
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, 'virtual-device': { type: 'string' } },
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
  const host = await startHost({
    dataDir: values['data-dir'] ?? defaultDataDir(),
    port,
    virtualDevice: profile ?? false,
  });
  const ready = {
    ready: true,
    ui: host.address.ui,
    mcp: host.address.mcp,
    dataDir: host.dataDir,
    tokenFile: host.tokenFile,
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  if (mode === 'electron-fallback') process.stderr.write(`Toolgate UI: ${host.address.ui}\n`);
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
  fail(command ? `unknown command '${command}'` : 'missing command');
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`toolgate: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
