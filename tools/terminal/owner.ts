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

/** How the host labels the keys a person types on the Terminals page (host-api's terminalInput). */
export const TERMINALS_PAGE = 'Terminals page';

/**
 * The person typing on the Terminals page, after taking control: their keys are theirs and ask no
 * one. Anything else in the UI's session (Try it, a shortcut or batch the person started, whose
 * steps an agent may have written) asks like any call, as the pipeline's own gate does. Only the
 * host sets a requester; no MCP call can claim this one.
 */
export function typedByPerson(ctx: Pick<ToolContext, 'sessionId' | 'requester'>): boolean {
  return isPerson(ctx) && ctx.requester.kind === 'ui' && ctx.requester.label === TERMINALS_PAGE;
}

export function ownerOf(ctx: Pick<ToolContext, 'sessionId'>): string {
  return isPerson(ctx) ? PERSON : ctx.sessionId.replace(/#\d+$/, '');
}

export function openerOf(ctx: Pick<ToolContext, 'sessionId' | 'requester'>): string {
  if (isPerson(ctx)) return 'you (Toolgate UI)';
  return ctx.requester.label ?? ctx.sessionId;
}
