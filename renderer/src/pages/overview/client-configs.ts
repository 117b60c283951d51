/**
 * Ready-to-paste configurations for common MCP hosts, built from the host's MCP URL, the data dir
 * and the token the person created for that client. The token is substituted by the caller: masked
 * on screen, real when copied. Without one, the HTTP configs name a placeholder (they cannot work
 * yet) and the stdio ones fall back to the data dir's default token, which the bridge reads itself.
 */
export interface ClientConfig {
  id: string;
  label: string;
  /** Where the snippet goes. */
  where: string;
  text: string;
  /** The snippet works only with a token of its own (HTTP clients send it in a header). */
  needsToken: boolean;
}

export const TOKEN_PLACEHOLDER = '<create a token for this client>';

export interface EndpointFacts {
  mcpUrl: string;
  /** The host's own command for the stdio bridge (absolute paths, so it works from any folder). */
  stdioBridge: { command: string; args: string[] };
}

/** A POSIX shell word: bare when safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function clientConfigs(facts: EndpointFacts, token?: string): ClientConfig[] {
  const auth = `Bearer ${token ?? TOKEN_PLACEHOLDER}`;
  const httpServer = { url: facts.mcpUrl, headers: { Authorization: auth } };
  const bridge = facts.stdioBridge;
  // The bridge takes a client's token from its environment: never from its arguments, which every
  // account of the machine can read in the process list.
  const bridgeEnv = token ? { env: { TOOLGATE_TOKEN: token } } : {};
  const bridgeLine = [bridge.command, ...bridge.args].map(shellWord).join(' ');
  return [
    {
      id: 'cursor',
      label: 'Cursor / Windsurf (mcpServers)',
      where: 'Add to ~/.cursor/mcp.json (or the project’s .cursor/mcp.json).',
      text: JSON.stringify({ mcpServers: { toolgate: httpServer } }, null, 2),
      needsToken: true,
    },
    {
      id: 'claude-desktop',
      label: 'Claude Desktop (mcpServers)',
      where:
        'Add to claude_desktop_config.json. Its config file starts local (stdio) servers, so it goes through the ' +
        'stdio bridge, which takes the token from its environment ' +
        '(or, without one, reads the data dir’s default token).',
      text: JSON.stringify(
        { mcpServers: { toolgate: { command: bridge.command, args: bridge.args, ...bridgeEnv } } },
        null,
        2,
      ),
      needsToken: false,
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'Run in a terminal.',
      text:
        `claude mcp add --transport http toolgate ${shellWord(facts.mcpUrl)} ` +
        `--header ${shellWord(`Authorization: ${auth}`)}`,
      needsToken: true,
    },
    {
      id: 'vscode',
      label: 'VS Code (servers)',
      where: 'Add to .vscode/mcp.json.',
      text: JSON.stringify({ servers: { toolgate: { type: 'http', ...httpServer } } }, null, 2),
      needsToken: true,
    },
    {
      id: 'stdio',
      label: 'stdio bridge',
      where: 'For hosts that only speak stdio: use this as the server command.',
      text: token ? `TOOLGATE_TOKEN=${shellWord(token)} ${bridgeLine}` : bridgeLine,
      needsToken: false,
    },
  ];
}

export function maskToken(token: string): string {
  if (token.length <= 8) return '•'.repeat(token.length);
  return `${'•'.repeat(12)}${token.slice(-4)}`;
}
