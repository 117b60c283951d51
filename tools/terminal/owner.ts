/**
 * Who a terminal belongs to. An MCP session is known by its label `<client>#<n>`, where the client
 * is the name of the token it connected with: the terminal belongs to the client, not the session,
 * so it survives a reconnect, and another client cannot reach it. The person (the UI's session
 * `ui`) reaches every terminal; their owner name starts with `@`, which no client name can.
 */
import type { ToolContext } from '../core/tool';

export const PERSON = '@person';

export function isPerson(ctx: Pick<ToolContext, 'sessionId'>): boolean {
  return ctx.sessionId === 'ui';
}

export function ownerOf(ctx: Pick<ToolContext, 'sessionId'>): string {
  return isPerson(ctx) ? PERSON : ctx.sessionId.replace(/#\d+$/, '');
}

export function openerOf(ctx: Pick<ToolContext, 'sessionId' | 'requester'>): string {
  if (isPerson(ctx)) return 'you (Toolgate UI)';
  return ctx.requester.label ?? ctx.sessionId;
}
