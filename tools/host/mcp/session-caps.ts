/**
 * How many MCP sessions may be open: per client (token) and in all. Each open session holds a
 * server and a transport in memory until it is closed or idle long enough, so an agent opening
 * sessions in a loop is refused with a reason it can act on instead of growing the host.
 */
import type { ClientIdentity } from '../auth/client-tokens';

export interface SessionCaps {
  perClient: number;
  total: number;
}

/** The refusal text when one more session would pass a cap; undefined when it may open. */
export function capRefusal(
  caps: SessionCaps,
  client: ClientIdentity,
  clientOpen: number,
  host: { open: number; idleMs: number },
): string | undefined {
  const advice =
    'Close sessions you no longer use (DELETE /mcp with their mcp-session-id) or reuse one; ' +
    `an unused session closes after ${duration(host.idleMs)}.`;
  if (clientOpen >= caps.perClient)
    return (
      `Too many MCP sessions: client '${client.name}' has ${clientOpen} open, ` +
      `its limit is ${caps.perClient}. ${advice}`
    );
  if (host.open >= caps.total)
    return `Too many MCP sessions: this host has ${host.open} open, its limit is ${caps.total}. ${advice}`;
  return undefined;
}

function duration(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;
}
