/**
 * Ready-to-paste configurations for common MCP hosts, built from the host's MCP URL, token and data
 * dir. The token is substituted by the caller: masked on screen, real when copied.
 */
export interface ClientConfig {
  id: string;
  label: string;
  /** Where the snippet goes. */
  where: string;
  text: string;
}

export interface EndpointFacts {
  mcpUrl: string;
  /** The host's own command for the stdio bridge (absolute paths, so it works from any folder). */
  stdioBridge: { command: string; args: string[] };
}

/** A POSIX shell word: bare when safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function clientConfigs(facts: EndpointFacts, token: string): ClientConfig[] {
  const auth = `Bearer ${token}`;
  const httpServer = { url: facts.mcpUrl, headers: { Authorization: auth } };
  const bridge = facts.stdioBridge;
  return [
    {
      id: 'cursor',
      label: 'Cursor / Windsurf (mcpServers)',
      where: 'Add to ~/.cursor/mcp.json (or the project’s .cursor/mcp.json).',
      text: JSON.stringify({ mcpServers: { toolgate: httpServer } }, null, 2),
    },
    {
      id: 'claude-desktop',
      label: 'Claude Desktop (mcpServers)',
      where:
        'Add to claude_desktop_config.json. Its config file starts local (stdio) servers, so it goes through the stdio bridge, which reads the token from the data dir.',
      text: JSON.stringify({ mcpServers: { toolgate: { command: bridge.command, args: bridge.args } } }, null, 2),
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'Run in a terminal.',
      text: `claude mcp add --transport http toolgate ${shellWord(facts.mcpUrl)} --header ${shellWord(`Authorization: ${auth}`)}`,
    },
    {
      id: 'vscode',
      label: 'VS Code (servers)',
      where: 'Add to .vscode/mcp.json.',
      text: JSON.stringify({ servers: { toolgate: { type: 'http', ...httpServer } } }, null, 2),
    },
    {
      id: 'stdio',
      label: 'stdio bridge',
      where: 'For hosts that only speak stdio: use this as the server command.',
      text: [bridge.command, ...bridge.args].map(shellWord).join(' '),
    },
  ];
}

export function maskToken(token: string): string {
  if (token.length <= 8) return '•'.repeat(token.length);
  return `${'•'.repeat(12)}${token.slice(-4)}`;
}
