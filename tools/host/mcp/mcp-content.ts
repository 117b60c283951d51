/**
 * What the MCP endpoint serves besides tools: prompts (clients show them as slash commands) and
 * resources (read when a client wants them). A family provides them through this port; the
 * endpoint only lists, reads and announces changes. The skills family is the provider today.
 */
import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Disposable } from '../../core/disposable';

export interface McpContentProvider {
  prompts(): Prompt[];
  /** undefined: no such prompt. */
  getPrompt(name: string, args: Readonly<Record<string, string>>): GetPromptResult | undefined;
  resources(): Resource[];
  /** undefined: no such resource. */
  readResource(uri: string): ReadResourceResult | undefined;
  /** Fires when the prompts or resources change (a skill installed, removed, switched). */
  onChange(listener: () => void): Disposable;
}
