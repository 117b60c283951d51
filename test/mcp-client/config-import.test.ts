/**
 * Rule: importing the common {"mcpServers": …} config validates each server on its own, returns
 * good entries as specs and bad ones as field errors naming their path, and never starts anything.
 */
import { describe, expect, it } from 'vitest';
import { importMcpConfig } from '../../tools/mcp-client';

describe('importMcpConfig refuses what is malformed', () => {
  it('reports text that is not JSON', () => {
    const result = importMcpConfig('{"mcpServers": ');
    expect(result.servers).toEqual([]);
    expect(result.errors[0]?.path).toBe('(config)');
  });

  it('reports a config without an mcpServers object', () => {
    expect(importMcpConfig({ servers: {} }).errors).toEqual([
      { path: 'mcpServers', message: expect.stringContaining('"mcpServers"') },
    ]);
  });

  it('names the field of each bad entry and still imports the good ones', () => {
    const result = importMcpConfig({
      mcpServers: {
        good: { command: 'npx', args: ['-y', '@scope/server'], env: { TOKEN: 'x' } },
        noArgsList: { command: 'node', args: 'server.js' },
        badArg: { command: 'node', args: ['ok', 7] },
        both: { command: 'node', url: 'http://127.0.0.1/mcp' },
        neither: { env: {} },
        badUrl: { url: 'ftp://example.org/mcp' },
        'bad name!': { command: 'node' },
        remote: { url: 'https://mcp.example.org/mcp', headers: { Authorization: 'Bearer t' } },
      },
    });
    expect(result.servers.map((s) => s.name)).toEqual(['good', 'remote']);
    expect(result.errors.map((e) => e.path).sort()).toEqual(
      [
        'mcpServers.bad name!',
        'mcpServers.badArg.args[1]',
        'mcpServers.badUrl.url',
        'mcpServers.both',
        'mcpServers.neither',
        'mcpServers.noArgsList.args',
      ].sort(),
    );
  });
});

describe('importMcpConfig reads both server kinds', () => {
  it('returns stdio and http specs with defaults filled in', () => {
    const result = importMcpConfig(
      JSON.stringify({
        mcpServers: {
          files: { command: '/usr/bin/node', args: ['server.js', '--root', '/tmp/my dir'], cwd: '/srv' },
          web: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
        },
      }),
    );
    expect(result.errors).toEqual([]);
    expect(result.servers).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: '/usr/bin/node',
        args: ['server.js', '--root', '/tmp/my dir'],
        env: {},
        cwd: '/srv',
      },
      { name: 'web', transport: 'http', url: 'http://127.0.0.1:3000/mcp', headers: {} },
    ]);
  });
});
