/**
 * An optional host policy consulted before a server is started or contacted — on top of the
 * pipeline's approval gate, which asks a person about the mcp_connect call itself. Hosts use it
 * for rules a click cannot express: an allowlist of commands in headless mode, "no remote URLs"
 * in a lab, or a second confirmation for servers imported from a config file.
 */
import { ToolCallError } from '../core/result';
import { type McpServerSpec, commandLine } from './server-spec';

export interface McpLaunchRequest {
  name: string;
  transport: 'stdio' | 'http';
  /** stdio: the program and its arguments exactly as they will run. */
  command?: string;
  args?: string[];
  /** stdio: the command line quoted for display. */
  commandLine?: string;
  cwd?: string;
  /** http: the endpoint. */
  url?: string;
  /** Names only; values may be credentials. */
  envKeys: string[];
  headerNames: string[];
}

export type McpLaunchDecision = boolean | { allow: boolean; reason?: string };

export type McpLaunchApprover = (request: McpLaunchRequest) => McpLaunchDecision | Promise<McpLaunchDecision>;

export function launchRequest(spec: McpServerSpec): McpLaunchRequest {
  if (spec.transport === 'stdio') {
    return {
      name: spec.name,
      transport: 'stdio',
      command: spec.command,
      args: [...spec.args],
      commandLine: commandLine(spec),
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      envKeys: Object.keys(spec.env).sort(),
      headerNames: [],
    };
  }
  return {
    name: spec.name,
    transport: 'http',
    url: spec.url,
    envKeys: [],
    headerNames: Object.keys(spec.headers).sort(),
  };
}

/** Resolves when the policy allows the launch (or there is none); throws PERMISSION_DENIED otherwise. */
export async function checkLaunch(approve: McpLaunchApprover | undefined, spec: McpServerSpec): Promise<void> {
  if (!approve) return;
  let decision: McpLaunchDecision;
  try {
    decision = await approve(launchRequest(spec));
  } catch (e) {
    throw new ToolCallError(
      'PERMISSION_DENIED',
      `Starting MCP server '${spec.name}' could not be approved: ${(e as Error).message}`,
    );
  }
  const allowed = typeof decision === 'boolean' ? decision : decision.allow;
  if (allowed) return;
  const reason = typeof decision === 'object' ? decision.reason?.trim() : undefined;
  throw new ToolCallError(
    'PERMISSION_DENIED',
    `The host policy refused to start MCP server '${spec.name}'${reason ? `: ${reason}` : '.'}`,
    {
      data: { server: spec.name, ...(reason ? { reason } : {}) },
    },
  );
}
