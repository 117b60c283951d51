/**
 * Import of the common MCP configuration JSON (Claude Desktop, Cursor, VS Code…):
 *
 *   {"mcpServers": {"name": {"command": "...", "args": [...], "env": {...}}
 *                  | {"url": "...", "headers": {...}}}}
 *
 * Every server is validated on its own: good entries come back as specs, bad ones as field errors
 * naming the path (`mcpServers.github.command`). Importing never starts a program; connecting is
 * a separate, approved step.
 */
import { z } from 'zod';
import { formatPath } from '../core/schema';
import { type McpServerSpec, SERVER_NAME, httpFields, stdioFields } from './server-spec';

export interface McpConfigFieldError {
  /** e.g. `mcpServers.github.args[1]` */
  path: string;
  message: string;
}

export interface McpConfigImport {
  servers: McpServerSpec[];
  errors: McpConfigFieldError[];
}

const stdioEntry = z.object({ ...stdioFields, cwd: z.string().min(1).optional(), type: z.literal('stdio').optional() });
const httpEntry = z.object({ ...httpFields, type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional() });

export function importMcpConfig(json: unknown): McpConfigImport {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (e) {
      return { servers: [], errors: [{ path: '(config)', message: `not valid JSON: ${(e as Error).message}` }] };
    }
  }
  const root = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).safeParse(value);
  if (!root.success)
    return {
      servers: [],
      errors: [{ path: 'mcpServers', message: 'expected an object {"mcpServers": {"<name>": {...}}}' }],
    };

  const servers: McpServerSpec[] = [];
  const errors: McpConfigFieldError[] = [];
  for (const [name, entry] of Object.entries(root.data.mcpServers)) {
    const base = ['mcpServers', name];
    if (!SERVER_NAME.test(name)) {
      errors.push({
        path: formatPath(base),
        message:
          'server name must start with a letter or digit and contain ' +
          'only letters, digits, "_" and "-" (at most 48 characters)',
      });
      continue;
    }
    const isObject = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
    const hasCommand = isObject && 'command' in entry;
    const hasUrl = isObject && 'url' in entry;
    if (!isObject || hasCommand === hasUrl) {
      errors.push({
        path: formatPath(base),
        message: 'give either "command" (a program to start) or "url" (a Streamable HTTP endpoint), not both',
      });
      continue;
    }
    const parsed = hasCommand ? stdioEntry.safeParse(entry) : httpEntry.safeParse(entry);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        errors.push({
          path: formatPath([...base, ...issue.path]),
          message: issue.message.replace(/^Invalid input: /, ''),
        });
      continue;
    }
    const data = parsed.data;
    if ('command' in data) {
      servers.push({
        name,
        transport: 'stdio',
        command: data.command,
        args: data.args,
        env: data.env,
        ...(data.cwd ? { cwd: data.cwd } : {}),
      });
    } else {
      servers.push({ name, transport: 'http', url: data.url, headers: data.headers });
    }
  }
  return { servers, errors };
}
