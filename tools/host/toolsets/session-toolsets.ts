/**
 * The toolsets of each MCP session (docs/architecture.md#toolsets). A session starts with the
 * toolsets its client's token allows, narrowed by `/mcp?toolsets=a,b` when the client asked for
 * fewer; it may turn on any other toolset the token allows and turn off any it has, and the
 * `toolsets` toolset is always on. Lists show only the tools of toolsets that are on, and a call to
 * any other tool, also as a step of a batch or shortcut, is NOT_FOUND naming the toolset to turn
 * on (or, when the token does not allow it, that a person must add it on the Overview page).
 * Sessions that are not MCP sessions (the UI's Try it, internal calls) reach every tool.
 */
import { type Disposable, Emitter } from '../../core/disposable';
import type { ToolScope } from '../../core/pipeline/tool-scope';
import { publishedName } from '../../core/published-name';
import type { ToolRegistry } from '../../core/registry';
import { type ToolResult, failure } from '../../core/result';
import type { Tool, ToolCall } from '../../core/tool';
import { uniqueNames } from '../../core/toolset';
import { TOOLSETS_TOOLSET } from './profile';

export interface SessionClient {
  id: string;
  name: string;
  /** The toolsets the client's token allows. */
  toolsets: readonly string[];
}

interface SessionState {
  client: SessionClient;
  allowed: Set<string>;
  on: Set<string>;
}

export type ToolsetStatus = 'on' | 'off' | 'not allowed';

export interface ToolsetView {
  name: string;
  summary: string;
  tools: string[];
  status: ToolsetStatus;
}

export type ToggleOutcome =
  | { ok: true; name: string; on: boolean; changed: boolean; tools: string[] }
  | { ok: false; result: ToolResult };

export class SessionToolsets implements ToolScope {
  private readonly sessions = new Map<string, SessionState>();
  private readonly changed = new Emitter<string>();

  constructor(private readonly registry: ToolRegistry) {}

  /**
   * A new session of `client`: on are the toolsets its token allows, or only those of them it
   * asked for (`requested`, from `?toolsets=`); a name it may not use or that does not exist is
   * ignored, never added.
   */
  open(label: string, client: SessionClient, requested?: readonly string[]): void {
    const allowed = new Set(client.toolsets);
    const on = new Set(requested ? requested.filter((n) => allowed.has(n)) : allowed);
    this.sessions.set(label, { client, allowed, on });
  }

  close(label: string): void {
    this.sessions.delete(label);
  }

  isMcpSession(label: string): boolean {
    return this.sessions.has(label);
  }

  /**
   * A person changed what a client's token allows: every session of it may turn on the new ones,
   * and those no longer allowed are off at once.
   */
  updateClient(clientId: string, toolsets: readonly string[]): void {
    for (const [label, s] of this.sessions) {
      if (s.client.id !== clientId) continue;
      s.client = { ...s.client, toolsets };
      s.allowed = new Set(toolsets);
      const before = s.on.size;
      for (const name of [...s.on]) if (!s.allowed.has(name)) s.on.delete(name);
      if (s.on.size !== before) this.changed.emit(label);
    }
  }

  /** Whether a session lists a tool: its toolset is on (for a session this class does not know, every tool). */
  lists(label: string, tool: Tool): boolean {
    const s = this.sessions.get(label);
    if (!s) return true;
    const toolset = this.registry.toolsetOf(tool.id);
    return toolset !== undefined && this.isOn(s, toolset.name);
  }

  /** The tools a session lists, by id. */
  listed(label: string): Tool[] {
    return this.registry.list().filter((t) => this.lists(label, t));
  }

  refuse(tool: Tool, call: ToolCall): ToolResult | undefined {
    const s = this.sessions.get(call.sessionId ?? '');
    if (!s) return undefined;
    const toolset = this.registry.toolsetOf(tool.id);
    if (toolset && this.isOn(s, toolset.name)) return undefined;
    const name = publishedName(tool.id);
    if (!toolset)
      return failure('NOT_FOUND', `Unknown tool '${name}'.`, {
        hint: 'List the available tools and pick one of those.',
        data: { suggestions: [] },
      });
    if (s.allowed.has(toolset.name))
      return failure('NOT_FOUND', `Tool '${name}' is in toolset '${toolset.name}', which is off in this session.`, {
        hint: `Call toolset_enable with {"toolset":"${toolset.name}"}, then call ${name} again.`,
        data: { toolset: toolset.name, allowed: true },
      });
    return failure(
      'NOT_FOUND',
      `Tool '${name}' is in toolset '${toolset.name}', which client '${s.client.name}' may not use.`,
      {
        hint:
          `A person must add toolset '${toolset.name}' to client '${s.client.name}' on Toolgate's Overview ` +
          `page; until then, do without ${name}.`,
        data: { toolset: toolset.name, allowed: false },
      },
    );
  }

  /** Every toolset with its tools and what it is in this session. */
  view(label: string): ToolsetView[] {
    const s = this.sessions.get(label);
    return this.registry.toolsets().map((t) => ({
      name: t.name,
      summary: t.summary,
      tools: this.registry.toolsOf(t.name).map((tool) => publishedName(tool.id)),
      status: !s || this.isOn(s, t.name) ? 'on' : s.allowed.has(t.name) ? 'off' : 'not allowed',
    }));
  }

  /** Turns a toolset on or off in one session. */
  toggle(label: string, name: string, on: boolean): ToggleOutcome {
    const s = this.sessions.get(label);
    if (!s)
      return {
        ok: false,
        result: failure('UNSUPPORTED', 'Only an MCP session has toolsets to turn on or off; every tool is on here.', {
          hint: 'Call the tool you need directly.',
        }),
      };
    if (!this.registry.toolset(name)) return { ok: false, result: this.unknownToolset(name) };
    const tools = this.registry.toolsOf(name).map((t) => publishedName(t.id));
    if (name === TOOLSETS_TOOLSET.name) {
      if (on) return { ok: true, name, on, changed: false, tools };
      return {
        ok: false,
        result: failure('INVALID_ARGUMENT', `Toolset '${name}' is always on.`, {
          hint: 'Turn off other toolsets instead.',
          data: { fields: ['toolset'] },
        }),
      };
    }
    if (on && !s.allowed.has(name))
      return {
        ok: false,
        result: failure('PERMISSION_DENIED', `Client '${s.client.name}' may not use toolset '${name}'.`, {
          hint:
            `A person must add toolset '${name}' to client '${s.client.name}' ` +
            `on Toolgate's Overview page; do not retry until then.`,
          data: { toolset: name, allowed: false },
        }),
      };
    const changed = on ? !s.on.has(name) : s.on.has(name);
    if (on) s.on.add(name);
    else s.on.delete(name);
    if (changed) this.changed.emit(label);
    return { ok: true, name, on, changed, tools };
  }

  /** NOT_FOUND for a toolset name that does not exist, with the names that do (a short list). */
  unknownToolset(name: string): ToolResult {
    const names = this.registry.toolsets().map((t) => t.name);
    return failure('NOT_FOUND', `No toolset '${name}'. Toolsets: ${names.join(', ')}.`, {
      hint: 'Use one of those names.',
      data: { fields: ['toolset'], toolsets: names },
    });
  }

  /** A session's toolsets changed: its client should list the tools again. */
  onChange(listener: (label: string) => void): Disposable {
    return this.changed.on(listener);
  }

  private isOn(s: SessionState, name: string): boolean {
    return name === TOOLSETS_TOOLSET.name || s.on.has(name);
  }
}

/** `a,b` from a query string, as toolset names (empty entries dropped). */
export function parseToolsetList(text: string): string[] {
  return uniqueNames(
    text
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  );
}
