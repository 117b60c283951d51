/**
 * Which tools a call's session may reach, asked right after the registry lookup and before any
 * stage: the host answers for its MCP sessions (a tool outside the session's toolsets is
 * NOT_FOUND, with the toolset to enable). Nested calls run in their parent's session, so a batch
 * or a shortcut reaches no tool its caller could not call itself.
 */
import type { ToolResult } from '../result';
import type { Tool, ToolCall } from '../tool';

export interface ToolScope {
  /** A refusal for a tool this call's session may not reach; undefined to go on. */
  refuse(tool: Tool, call: ToolCall): ToolResult | undefined;
}
