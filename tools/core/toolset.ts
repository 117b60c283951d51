/**
 * Toolsets (docs/architecture.md#toolsets): every tool belongs to one named group, which a client's
 * token allows and an MCP session enables, so a model reads only the tools of the toolsets it
 * uses. A family declares its toolset once, when it registers its tools
 * (`registry.registerToolset(toolset, tools)`); tools a family adds later (a shortcut, a remote
 * MCP server's tools) name the family's toolset when they register.
 */
export interface Toolset {
  /** Lower-case words joined by hyphens: `device`, `device-shell`, `mcp-client`. */
  readonly name: string;
  /** One line a model reads in `toolset_list`: what the tools do, not how many there are. */
  readonly summary: string;
}

export const TOOLSET_NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_NAME = 32;
const MAX_SUMMARY = 120;

export function defineToolset(name: string, summary: string): Toolset {
  if (!TOOLSET_NAME_PATTERN.test(name) || name.length > MAX_NAME)
    throw new Error(
      `Toolset name '${name}' must be lower-case words joined by hyphens, at most ${MAX_NAME} characters.`,
    );
  if (summary.length === 0 || summary.length > MAX_SUMMARY || summary.includes('\n'))
    throw new Error(`Toolset '${name}' needs a one-line summary of at most ${MAX_SUMMARY} characters.`);
  return Object.freeze({ name, summary });
}

/** Names a person or a client sent, kept in order, without duplicates. */
export function uniqueNames(names: Iterable<string>): string[] {
  return [...new Set(names)];
}
