/**
 * How to reach one MCP server: a program to start (stdio) or a Streamable HTTP URL. The command
 * and its arguments are kept exactly as given — a program name and an argument list, never a
 * shell string — so what a person approves is what runs (no shell, no re-parsing).
 */
import { quote } from 'shell-quote';
import { z } from 'zod';
import { isSecretParam, secretValues } from '../network/secrets';

export interface StdioServerSpec {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpServerSpec {
  name: string;
  transport: 'http';
  url: string;
  headers: Record<string, string>;
}

export type McpServerSpec = StdioServerSpec | HttpServerSpec;

/** Server names become part of tool ids (`mcp.<name>.<tool>`), so they are kept short and plain. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

export const serverNameInput = z
  .string()
  .regex(
    SERVER_NAME,
    'must start with a letter or digit and contain only letters, digits, "_" and "-" (at most 48 characters)',
  )
  .describe('A short name, e.g. "github".');

export const stdioFields = {
  command: z.string().min(1).describe('e.g. "npx" or "/usr/local/bin/my-server".'),
  args: z.array(z.string()).default([]).describe('Passed one by one, as given.'),
  env: z.record(z.string(), z.string()).default({}).describe('Added to a minimal environment.'),
};

export const httpFields = {
  url: z.url({ protocol: /^https?$/ }).describe('e.g. http://127.0.0.1:3000/mcp.'),
  headers: z.record(z.string(), z.string()).default({}).describe('Never shown back.'),
};

/** The command line as a person should read it, quoted so each argument's boundaries are visible. */
export function commandLine(spec: Pick<StdioServerSpec, 'command' | 'args'>): string {
  return quote([spec.command, ...spec.args]);
}

/** Where the server is, for listings: the command line or the URL. Never env values or header values. */
export function describeTarget(spec: McpServerSpec): string {
  return spec.transport === 'stdio' ? commandLine(spec) : spec.url;
}

export function sameSpec(a: McpServerSpec, b: McpServerSpec): boolean {
  return JSON.stringify(normalised(a)) === JSON.stringify(normalised(b));
}

function normalised(spec: McpServerSpec): unknown {
  const sortObject = (o: Record<string, string>) =>
    Object.fromEntries(Object.entries(o).sort(([x], [y]) => x.localeCompare(y)));
  return spec.transport === 'stdio'
    ? { ...spec, env: sortObject(spec.env), cwd: spec.cwd ?? null }
    : { ...spec, headers: sortObject(spec.headers) };
}

/**
 * Values scrubbed from every output: credential headers, and env variables whose names say they
 * hold one (`GITHUB_TOKEN`, `API_KEY`…). Other env values (paths, modes) stay readable; listings
 * never show any env or header value anyway.
 */
export function specSecrets(spec: McpServerSpec): string[] {
  if (spec.transport === 'http') return secretValues(spec.headers);
  return Object.entries(spec.env)
    .filter(([name, value]) => isSecretParam(name) && value.trim().length >= 6)
    .map(([, value]) => value.trim());
}
